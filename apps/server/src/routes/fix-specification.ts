import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  getConnector,
  getFixSpecDocumentModel,
  insertFixSpecDocument,
  listFixSpecDocuments,
  nextFixSpecVersion,
  UniqueViolation,
} from '@fixdesk/db';
import { diffFixSpecDocuments, FIX_SPEC_DEFAULT_CONNECTOR, type FixSpecDocument } from '@fixdesk/domain';
import {
  CompIdParamsSchema,
  FIX_SPEC_VERSION_HEADER,
  FixSpecDiffQuerySchema,
  FixSpecificationQuerySchema,
  GenerateClientFixSpecSchema,
  type FixSpecVersion,
} from '@fixdesk/protocol';
import type { AppContext } from '../context';
import { loadDictionaryData } from '../dictionary';
import { buildFixSpecDocument, type DocumentSources } from '../fix-spec/document-model';
import { deskAcceptor } from '../fix/session-config';
import { encryptDocument, renderEncryptedPage } from '../fix-spec/encrypted-document';
import { renderOrchestraXml } from '../fix-spec/orchestra';
import { renderFixSpecHtml } from '../fix-spec/render-html';
import { invalidField, notFound, parse } from '../http/errors';

/** A file name made of the comp id's safe characters. */
const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_');

/**
 * The FIX specification page's document (every signed-in user), the password-protected client
 * document (spec 001 §7, administrators), the versions handed out and their differences, and the FIX
 * Orchestra file of a client.
 */
export function fixSpecificationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const read = { config: { access: 'read' as const } };
  const admin = { config: { access: 'admin' as const } };
  const sources = (): DocumentSources => ({ db: ctx.db, dictionary: loadDictionaryData(), acceptor: deskAcceptor(ctx.config, ctx.fix) });

  app.get('/api/fix-specification', read, async (req) => {
    const q = parse(FixSpecificationQuerySchema, req.query, 'query');
    const compId = q.compId ?? FIX_SPEC_DEFAULT_CONNECTOR;
    // Capabilities (what the client may trade, its limits) are every signed-in user's reading, as GET
    // /api/client-capabilities is (docs/adr/0014): this page is where a broker or viewer sees them.
    const data = await buildFixSpecDocument(sources(), { compId, brokerId: q.brokerId, withCapabilities: true, now: new Date() });
    if (!data) throw notFound(`Client connector ${compId} not found`);
    return { success: true, data };
  });

  app.post('/api/generate-client-fix-spec', admin, async (req, reply) => {
    const input = parse(GenerateClientFixSpecSchema, req.body, 'body');
    const connector = await getConnector(ctx.db, input.senderCompId);
    if (!connector) throw notFound(`Client connector ${input.senderCompId} not found`);
    if (input.targetCompId && input.targetCompId !== connector.target_comp_id) {
      throw invalidField('targetCompId', `${input.senderCompId} logs on to ${connector.target_comp_id}, not ${input.targetCompId}`);
    }
    // Two administrators generating at once meet the (client, version) key: the later one takes the next version.
    for (let attempt = 0; ; attempt++) {
      const version = await nextFixSpecVersion(ctx.db, connector.comp_id);
      const model = await buildFixSpecDocument(sources(), {
        compId: connector.comp_id,
        brokerId: input.brokerId,
        withCapabilities: true,
        now: new Date(),
        version,
        clientName: input.clientName,
        clientContact: input.clientContact,
      });
      if (!model) throw notFound(`Client connector ${input.senderCompId} not found`);
      const file = renderEncryptedPage(await encryptDocument(renderFixSpecHtml(model), input.password));
      const fileSha256 = createHash('sha256').update(file).digest('hex');
      try {
        await insertFixSpecDocument(ctx.db, {
          connectorId: connector.id,
          compId: connector.comp_id,
          version,
          clientName: input.clientName,
          clientContact: input.clientContact,
          generatedBy: req.user?.username ?? 'unknown',
          generatedByUserId: req.user?.user_id ?? null,
          fileSha256,
          model,
        });
      } catch (err) {
        if (err instanceof UniqueViolation && attempt < 3) continue;
        throw err;
      }
      // Who, for which client, which version: never the password.
      ctx.log.info({ compId: connector.comp_id, version, by: req.user?.username, fileSha256 }, 'client FIX specification generated');
      const name = `FIX_Specification_${fileSafe(connector.comp_id)}_v${version}_${model.generatedAt.slice(0, 10)}.html`;
      return reply
        .type('text/html; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header(FIX_SPEC_VERSION_HEADER, String(version))
        .send(file);
    }
  });

  app.get('/api/client-connectors/:comp_id/fix-spec-versions', admin, async (req) => {
    const { comp_id } = parse(CompIdParamsSchema, req.params, 'params');
    const rows = await listFixSpecDocuments(ctx.db, comp_id);
    const data: FixSpecVersion[] = rows.map((r) => ({
      version: r.version,
      generatedAt: r.generated_at.toISOString(),
      generatedBy: r.generated_by,
      clientName: r.client_name,
      clientContact: r.client_contact,
      fileSha256: r.file_sha256,
    }));
    return { success: true, data };
  });

  app.get('/api/client-connectors/:comp_id/fix-spec-versions/diff', admin, async (req) => {
    const { comp_id } = parse(CompIdParamsSchema, req.params, 'params');
    const { from, to } = parse(FixSpecDiffQuerySchema, req.query, 'query');
    const [a, b] = await Promise.all([getFixSpecDocumentModel(ctx.db, comp_id, from), getFixSpecDocumentModel(ctx.db, comp_id, to)]);
    if (!a) throw notFound(`Version ${from} of ${comp_id}'s FIX specification not found`);
    if (!b) throw notFound(`Version ${to} of ${comp_id}'s FIX specification not found`);
    return { success: true, data: { from, to, changes: diffFixSpecDocuments(a as FixSpecDocument, b as FixSpecDocument) } };
  });

  app.get('/api/client-connectors/:comp_id/fix-orchestra', admin, async (req, reply) => {
    const { comp_id } = parse(CompIdParamsSchema, req.params, 'params');
    const model = await buildFixSpecDocument(sources(), { compId: comp_id, withCapabilities: true, now: new Date() });
    if (!model) throw notFound(`Client connector ${comp_id} not found`);
    const dictionary = loadDictionaryData();
    return reply
      .type('application/xml; charset=utf-8')
      .header('content-disposition', `attachment; filename="FIX_Orchestra_${fileSafe(comp_id)}_${model.generatedAt.slice(0, 10)}.xml"`)
      .send(renderOrchestraXml(model, dictionary));
  });
}
