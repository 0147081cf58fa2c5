import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CheckViolation,
  connectorSessionTypes,
  countCapabilities,
  countConnectorOrders,
  countDropCopiesOwed,
  deleteConnector,
  deleteConnectorLogo,
  dropCopiesNaming,
  ForeignKeyViolation,
  getConnector,
  getConnectorLogo,
  insertConnector,
  listConnectors,
  listStoredSequenceNumbers,
  saveConnectorLogo,
  UniqueViolation,
  updateConnector,
  type ConnectorColumn,
  type ConnectorRow,
  type Queryable,
} from '@fixdesk/db';
import {
  CompIdParamsSchema,
  connectorLogoPath,
  CONNECTOR_READ_ONLY_FIELDS,
  CreateConnectorSchema,
  dropCopyProblem,
  HEARTBEAT_DEFAULTS,
  heartbeatSettingsProblem,
  UpdateConnectorSchema,
  type ClientConnector,
  type ConnectorLiveState,
  type FixAcceptorInfo,
  type SessionType,
  type UpdateConnectorInput,
} from '@fixdesk/protocol';
import type { AppContext } from '../context';
import { clientAddress, deskAcceptor, type AcceptorAddress } from '../fix/session-config';
import { HttpError, badRequest, conflict, notFound, parse } from '../http/errors';
import { fetchRemoteLogo, type LogoFetchOptions, type LogoFetchResult } from '../reference/remote-logo';

/**
 * The API shape. Lists carry no secrets for anyone (they are presented as for a non-administrator); the
 * FIX password goes to administrators reading one connector or writing it, and the TLS certificate and
 * CA only in one connector's answer to an administrator (`withTls`). The client's private key never:
 * it is handed out once, when the certificate is generated.
 */
export function presentConnector(row: ConnectorRow, acceptor: AcceptorAddress, isAdmin: boolean, withTls = false): ClientConnector {
  const {
    tls_expires_at: _expires,
    port: _stored,
    trading_stopped_at,
    trading_stopped_by,
    trading_stop_reason,
    logo_source_url: _src,
    logo_sha256: _sha,
    logo_problem: _problem,
    ...rest
  } = row;
  const tls = isAdmin && withTls;
  const address = clientAddress(row, acceptor);
  return {
    ...rest,
    trading_stop: trading_stopped_at
      ? { stopped_at: trading_stopped_at.toISOString(), stopped_by: trading_stopped_by ?? '', reason: trading_stop_reason ?? '' }
      : null,
    // The session config's own answer: the stored column is not what any client connects to.
    port: address.port,
    address,
    logo_src: logoSrc(row),
    lei: row.client_lei,
    fix_password: isAdmin ? row.fix_password : null,
    tls_key: null,
    tls_cert: tls ? row.tls_cert : null,
    tls_ca: tls ? row.tls_ca : null,
    tls_enabled: Boolean(row.tls_cert),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * Where the screens load the logo from: the desk's own copy, versioned by the image (or, not
 * fetched yet, by the URL: fetched at its first view); null without a logo_url or when its fetch was
 * refused (the screens show the initials).
 */
function logoSrc(row: ConnectorRow): string | null {
  if (!row.logo_url) return null;
  if (row.logo_source_url === row.logo_url) return row.logo_sha256 ? connectorLogoPath(row.comp_id, row.logo_sha256.slice(0, 16)) : null;
  return connectorLogoPath(row.comp_id, createHash('sha256').update(row.logo_url).digest('hex').slice(0, 16));
}

/** A logo fetched for a create or update: a refusal is the field's 400, with the reason. */
async function fetchLogoForWrite(url: string, options: LogoFetchOptions): Promise<LogoFetchResult & { ok: true }> {
  const got = await fetchRemoteLogo(url, options);
  if (!got.ok) throw new HttpError(400, `Logo URL ${got.reason}`, 'logo_url', [{ path: 'logo_url', message: got.reason }]);
  return got;
}

/** Form input → column values: blank optional strings become null; `lei` is an alias of client_lei; read-only fields dropped. */
function toColumns(input: UpdateConnectorInput): Partial<Record<ConnectorColumn, unknown>> {
  const { comp_id: _c, execution_id_prefix: _p, lei, ...rest } = input;
  const out: Partial<Record<ConnectorColumn, unknown>> = {};
  for (const [k, v] of Object.entries(rest)) {
    // Read-only fields echoed back (the certificate among them) are ignored, as on every admin resource.
    if (v === undefined || (CONNECTOR_READ_ONLY_FIELDS as readonly string[]).includes(k)) continue;
    out[k as ConnectorColumn] = v === '' ? null : v;
  }
  if (lei !== undefined && out.client_lei === undefined) out.client_lei = lei === '' ? null : lei;
  if (typeof out.whitelisted_ips === 'string') {
    out.whitelisted_ips =
      out.whitelisted_ips
        .split(/[,\s]+/)
        .filter(Boolean)
        .join(',') || null;
  }
  return out;
}

/** Refuses heartbeat fields that disagree with each other, as the row will be once written. */
function checkHeartbeat(
  values: Partial<Record<ConnectorColumn, unknown>>,
  existing: Pick<ConnectorRow, keyof typeof HEARTBEAT_DEFAULTS> = HEARTBEAT_DEFAULTS,
): void {
  const pick = (k: keyof typeof HEARTBEAT_DEFAULTS) => (values[k] as number | undefined) ?? existing[k];
  const problem = heartbeatSettingsProblem({
    heartbeatint: pick('heartbeatint'),
    heartbeat_min_sec: pick('heartbeat_min_sec'),
    heartbeat_max_sec: pick('heartbeat_max_sec'),
  });
  if (problem) throw badRequest(problem.message, problem.field);
}

/**
 * Refuses a session type or list of clients copied that breaks the drop copy rules (docs/adr/0017), as
 * the row will be once written: the list names order-entry connectors only, and only a drop copy names
 * any; a client named by a drop copy session stays a client; a connector with orders stays one.
 */
async function checkDropCopy(
  db: Queryable,
  compId: string,
  values: Partial<Record<ConnectorColumn, unknown>>,
  existing?: Pick<ConnectorRow, 'id' | 'session_type' | 'drop_copy_of'>,
): Promise<void> {
  const sessionType = (values.session_type as SessionType | undefined) ?? existing?.session_type ?? 'order_entry';
  const dropCopyOf = (values.drop_copy_of as string[] | undefined) ?? existing?.drop_copy_of ?? [];
  const problem = dropCopyProblem(
    { comp_id: compId, session_type: sessionType, drop_copy_of: dropCopyOf },
    await connectorSessionTypes(db, dropCopyOf),
  );
  if (problem) throw badRequest(problem.message, problem.field);
  if (!existing || sessionType !== 'drop_copy' || existing.session_type === 'drop_copy') return;
  const naming = await dropCopiesNaming(db, compId);
  if (naming.length) {
    throw new HttpError(
      409,
      `${compId} is a client copied by drop copy session ${naming.join(', ')}: it cannot become a drop copy session`,
      'session_type',
    );
  }
  const orders = await countConnectorOrders(db, existing.id);
  if (orders > 0) {
    throw new HttpError(
      409,
      `${compId} has ${orders} order(s): it stays an order-entry session; create a new connector for the drop copy`,
      'session_type',
    );
  }
}

export function clientConnectorRoutes(app: FastifyInstance, ctx: AppContext): void {
  const isAdmin = (req: FastifyRequest) => req.user?.role === 'admin';
  const acceptor = () => deskAcceptor(ctx.config, ctx.fix);

  // The desk's FIX acceptor as clients reach it: a new connector's dialog shows it before anything is saved.
  app.get('/api/fix-acceptor', { config: { access: 'read' } }, async () => {
    const a = clientAddress({ host: null, tls_cert: null }, acceptor());
    const data: FixAcceptorInfo = { host: a.host, port: a.port, tls_port: ctx.fix.tlsPort > 0 ? ctx.fix.tlsPort : null };
    return { success: true, data };
  });

  // Every signed-in user's screens list the clients (blotter, simulators); the list never carries secrets.
  app.get('/api/client-connectors', { config: { access: 'read' } }, async () => {
    const [rows, caps, stored] = await Promise.all([listConnectors(ctx.db), countCapabilities(ctx.db), listStoredSequenceNumbers(ctx.db)]);
    const live = new Map(ctx.fix.list().map((s) => [s.sessionID.targetCompID, s]));
    return {
      success: true,
      data: rows.map((r) => {
        const s = live.get(r.comp_id);
        // Logged on here, or at another live node of the desk (the database says so).
        const loggedOn = Boolean(s?.loggedOn) || r.is_connected;
        const seq = s ? { nextSender: s.nextSenderMsgSeqNum, nextTarget: s.nextTargetMsgSeqNum } : stored.get(r.comp_id);
        const cap = caps.get(r.id);
        const state: ConnectorLiveState = {
          logged_on: loggedOn,
          remote_address: s?.loggedOn ? (s.remoteAddress ?? null) : null,
          next_sender_seq: seq?.nextSender ?? null,
          next_target_seq: seq?.nextTarget ?? null,
          capabilities: cap?.total ?? 0,
          capabilities_enabled: cap?.enabled ?? 0,
        };
        return { ...presentConnector(r, acceptor(), false), live: state };
      }),
    };
  });

  app.get('/api/client-connectors/:comp_id', { config: { access: 'read' } }, async (req) => {
    const { comp_id } = parse(CompIdParamsSchema, req.params, 'params');
    const row = await getConnector(ctx.db, comp_id);
    if (!row) throw notFound(`Client connector ${comp_id} not found`);
    return { success: true, data: presentConnector(row, acceptor(), isAdmin(req), true) };
  });

  app.post('/api/client-connectors', { config: { access: 'admin' } }, async (req) => {
    const input = parse(CreateConnectorSchema, req.body, 'body');
    const values = toColumns(input);
    values.target_comp_id ??= 'FIXDESK';
    checkHeartbeat(values);
    await checkDropCopy(ctx.db, input.comp_id, values);
    const logoUrl = typeof values.logo_url === 'string' ? values.logo_url : null;
    const logo = logoUrl ? await fetchLogoForWrite(logoUrl, ctx.logoFetch) : null;
    try {
      const row = await ctx.db.transaction(async (tx) => {
        const created = await insertConnector(tx, input.comp_id, input.execution_id_prefix.toUpperCase(), values);
        if (!logo || !logoUrl) return created;
        await saveConnectorLogo(tx, created.id, { sourceUrl: logoUrl, ...logo });
        return (await getConnector(tx, created.comp_id))!;
      });
      ctx.log.info({ compId: row.comp_id, by: req.user?.username }, 'client connector created');
      ctx.events.emit('connector-changed', row.comp_id);
      return { success: true, data: presentConnector(row, acceptor(), true), message: 'Client connector created successfully!' };
    } catch (err) {
      if (err instanceof UniqueViolation && err.constraint === 'client_connectors_comp_id_key')
        throw new HttpError(409, `Component ID ${input.comp_id} already exists`, 'comp_id');
      if (err instanceof UniqueViolation && err.constraint === 'client_connectors_execution_id_prefix_key') {
        throw new HttpError(
          409,
          `Execution ID prefix ${input.execution_id_prefix.toUpperCase()} is already used by another connector`,
          'execution_id_prefix',
        );
      }
      if (err instanceof ForeignKeyViolation) throw badRequest('broker_id does not name a broker', 'broker_id');
      throw err;
    }
  });

  app.put('/api/client-connectors/:comp_id', { config: { access: 'admin' } }, async (req) => {
    const { comp_id } = parse(CompIdParamsSchema, req.params, 'params');
    const input = parse(UpdateConnectorSchema, req.body, 'body');
    const existing = await getConnector(ctx.db, comp_id);
    if (!existing) throw notFound(`Client connector ${comp_id} not found`);
    if (input.comp_id !== undefined && input.comp_id !== comp_id) {
      throw badRequest('Component ID cannot be changed; create a new connector instead', 'comp_id');
    }
    if (input.execution_id_prefix !== undefined && input.execution_id_prefix.toUpperCase() !== existing.execution_id_prefix) {
      throw badRequest('Execution ID prefix is fixed once the connector is created', 'execution_id_prefix');
    }
    const values = toColumns(input);
    checkHeartbeat(values, existing);
    await checkDropCopy(ctx.db, comp_id, values, existing);
    // A new logo_url is fetched before anything is written; the same one again only when its last fetch was refused.
    const logoUrl = values.logo_url === undefined ? undefined : typeof values.logo_url === 'string' ? values.logo_url : null;
    const fetched =
      logoUrl && !(existing.logo_source_url === logoUrl && existing.logo_sha256) ? await fetchLogoForWrite(logoUrl, ctx.logoFetch) : null;
    try {
      const row = await ctx.db.transaction(async (tx) => {
        const updated = await updateConnector(tx, comp_id, values);
        if (!updated) throw notFound(`Client connector ${comp_id} not found`);
        if (logoUrl === null) await deleteConnectorLogo(tx, updated.id);
        else if (logoUrl && fetched) await saveConnectorLogo(tx, updated.id, { sourceUrl: logoUrl, ...fetched });
        else return updated;
        return (await getConnector(tx, comp_id))!;
      });
      ctx.log.info({ compId: comp_id, by: req.user?.username, fields: Object.keys(input) }, 'client connector updated');
      ctx.events.emit('connector-changed', comp_id);
      return { success: true, data: presentConnector(row, acceptor(), true), message: 'Client connector updated successfully!' };
    } catch (err) {
      if (err instanceof ForeignKeyViolation) throw badRequest('broker_id does not name a broker', 'broker_id');
      if (err instanceof CheckViolation) throw badRequest(`Value out of range: ${err.message}`);
      throw err;
    }
  });

  // The logo from the desk's own origin: fetched when the logo_url was saved, or, for a
  // logo_url saved before the desk fetched logos, at its first view (once: a refusal is kept too).
  const fetching = new Map<string, Promise<void>>();
  app.get('/api/client-connectors/:comp_id/logo', { config: { access: 'read' } }, async (req, reply) => {
    const { comp_id } = parse(CompIdParamsSchema, req.params, 'params');
    const row = await getConnector(ctx.db, comp_id);
    if (!row) throw notFound(`Client connector ${comp_id} not found`);
    const url = row.logo_url;
    if (!url) throw notFound(`Client connector ${comp_id} has no logo`);
    let logo = await getConnectorLogo(ctx.db, row.id);
    if (logo?.source_url !== url) {
      const key = `${row.id} ${url}`;
      let pending = fetching.get(key);
      if (!pending) {
        pending = fetchRemoteLogo(url, ctx.logoFetch)
          .then((got) => saveConnectorLogo(ctx.db, row.id, got.ok ? { sourceUrl: url, ...got } : { sourceUrl: url, problem: got.reason }))
          .finally(() => fetching.delete(key));
        fetching.set(key, pending);
      }
      await pending;
      logo = await getConnectorLogo(ctx.db, row.id);
      if (logo) ctx.log.info({ compId: comp_id, refused: logo.problem ?? undefined }, 'client logo fetched at first view');
    }
    if (!logo || logo.source_url !== url) throw notFound(`Client connector ${comp_id} has no logo`);
    if (!logo.image || !logo.content_type)
      throw notFound(`Client connector ${comp_id} has no logo: Logo URL ${logo.problem ?? 'was refused'}`);
    return (
      reply
        .header('content-type', logo.content_type)
        .header('x-content-type-options', 'nosniff')
        // Opened on its own, an SVG is a document of our origin: it may run nothing and reach nothing.
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('content-disposition', 'inline; filename="logo"')
        // Its address changes with the image (?v=), so a browser may keep it.
        .header('cache-control', 'private, max-age=86400')
        .header('etag', `"${logo.sha256}"`)
        .send(logo.image)
    );
  });

  app.delete('/api/client-connectors/:comp_id', { config: { access: 'admin' } }, async (req) => {
    const { comp_id } = parse(CompIdParamsSchema, req.params, 'params');
    const existing = await getConnector(ctx.db, comp_id);
    if (!existing) throw notFound(`Client connector ${comp_id} not found`);
    // Orders are compliance records: a connector with orders is deactivated, never deleted.
    const orders = await countConnectorOrders(ctx.db, existing.id);
    if (orders > 0) {
      throw conflict(`Cannot delete client connector ${comp_id} - it has ${orders} order(s) in the system. Deactivate it instead.`);
    }
    // Likewise the copies owed to a drop copy session: they are the record of what it was sent.
    const copies = await countDropCopiesOwed(ctx.db, existing.id);
    if (copies > 0) {
      throw conflict(
        `Cannot delete client connector ${comp_id} - it has ${copies} drop ${copies === 1 ? 'copy' : 'copies'} in the system. Deactivate it instead.`,
      );
    }
    // A drop copy session's list never names a connector that is gone.
    const naming = await dropCopiesNaming(ctx.db, comp_id);
    if (naming.length) {
      throw conflict(
        `Cannot delete client connector ${comp_id} - drop copy session ${naming.join(', ')} copies it. Remove it from there first.`,
      );
    }
    try {
      await deleteConnector(ctx.db, comp_id);
    } catch (err) {
      // An order or a copy written since the counts above.
      if (err instanceof ForeignKeyViolation)
        throw conflict(`Cannot delete client connector ${comp_id} - it has records in the system. Deactivate it instead.`);
      throw err;
    }
    ctx.log.info({ compId: comp_id, by: req.user?.username }, 'client connector deleted');
    ctx.events.emit('connector-changed', comp_id);
    return { success: true, message: `Client connector ${comp_id} deleted successfully` };
  });
}
