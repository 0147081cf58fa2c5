import type { FastifyInstance, FastifyRequest } from 'fastify';
import { getConnector, recordSessionOperation, setConnectorCertificate } from '@fixdesk/db';
import { CompIdParamsSchema, GenerateCertsSchema, TLS_NO_PORT_TEXT, type GenerateCertsResult, type SessionConfig } from '@fixdesk/protocol';
import type { AppContext } from '../context';
import { buildSessionConfig, deskAcceptor } from '../fix/session-config';
import { HttpError, conflict, notFound, parse } from '../http/errors';
import { ensureServerCertificate, issueClientCertificate } from '../pki/desk-pki';

function actor(req: FastifyRequest): { changedBy: string; userRef: number | null } {
  return { changedBy: req.user?.username ?? 'unknown', userRef: req.user?.user_id ?? null };
}

/**
 * A connector's client certificate, signed by the desk CA (with the acceptor's server
 * certificate, issued on first use), and the session configuration its FIX team needs. Admin only.
 * The client's private key is in the generation's answer only, never stored.
 */
export function connectorCertificateRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = { config: { access: 'admin' as const } };

  app.post('/api/client-connectors/:comp_id/generate-certs', admin, async (req) => {
    const { comp_id } = parse(CompIdParamsSchema, req.params, 'params');
    const input = parse(GenerateCertsSchema, req.body ?? {}, 'body');
    const existing = await getConnector(ctx.db, comp_id);
    // The web says 'Please save the connector first before generating certificates' before it asks.
    if (!existing) throw notFound(`Client connector ${comp_id} not found: save the connector first before generating certificates`);
    // A certificate makes the connector's logons TLS-only: without a TLS port none could succeed.
    if (!(ctx.fix.tlsPort > 0)) throw conflict(TLS_NO_PORT_TEXT);
    await ensureServerCertificate(ctx.db, ctx.config.fixTlsNames);
    const issued = await issueClientCertificate(ctx.db, {
      commonName: input.commonName,
      organization: input.organization || undefined,
      country: input.country,
    });
    const stored = await ctx.db.transaction(async (tx) => {
      const ok = await setConnectorCertificate(tx, comp_id, { certPem: issued.certPem, caPem: issued.caPem, expiresAt: issued.expiresAt });
      if (!ok) return false;
      await recordSessionOperation(tx, {
        compId: comp_id,
        action: 'GENERATE_CERTS',
        reason: `Client certificate issued for CN=${input.commonName}`,
        before: existing.tls_cert
          ? { tls_enabled: true, expiresAt: existing.tls_expires_at?.toISOString() ?? null }
          : { tls_enabled: false },
        after: {
          tls_enabled: true,
          commonName: input.commonName,
          organization: input.organization || null,
          country: input.country,
          fingerprint256: issued.fingerprint256,
          expiresAt: issued.expiresAt.toISOString(),
        },
        ...actor(req),
      });
      return true;
    });
    if (!stored) throw new HttpError(404, `Client connector ${comp_id} not found`);
    // Never the key or the certificate in the log: who, which connector, the fingerprint.
    ctx.log.info({ compId: comp_id, by: req.user?.username, fingerprint256: issued.fingerprint256 }, 'client certificate issued');
    ctx.events.emit('connector-changed', comp_id);
    // The private key leaves here once, to the administrator who issued it (recorded above), and is
    // kept nowhere: no later read returns it.
    const data: GenerateCertsResult = {
      expiresAt: issued.expiresAt.toISOString(),
      fingerprint256: issued.fingerprint256,
      commonName: input.commonName,
      privateKeyPem: issued.keyPem,
    };
    return {
      success: true,
      data,
      message: `Certificates generated and stored in database! Valid until: ${issued.expiresAt.toISOString().slice(0, 10)}`,
    };
  });

  app.get('/api/client-connectors/:comp_id/session-config', admin, async (req) => {
    const { comp_id } = parse(CompIdParamsSchema, req.params, 'params');
    const c = await getConnector(ctx.db, comp_id);
    if (!c) throw notFound(`Client connector ${comp_id} not found: save the connector first before generating session config`);
    const data: SessionConfig = buildSessionConfig(c, deskAcceptor(ctx.config, ctx.fix));
    return { success: true, data };
  });
}
