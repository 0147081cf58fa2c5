import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  countCapabilities,
  countConnectorOrders,
  listStoredSequenceNumbers,
  deleteConnector,
  getConnector,
  insertConnector,
  listConnectors,
  updateConnector,
  type ConnectorColumn,
  type ConnectorRow,
} from '@fixdesk/db';
import {
  CompIdParamsSchema,
  CONNECTOR_READ_ONLY_FIELDS,
  CreateConnectorSchema,
  HEARTBEAT_DEFAULTS,
  heartbeatSettingsProblem,
  UpdateConnectorSchema,
  type ClientConnector,
  type ConnectorLiveState,
  type UpdateConnectorInput,
} from '@fixdesk/protocol';
import type { AppContext } from '../context';
import { HttpError, badRequest, conflict, notFound, parse } from '../http/errors';

/**
 * The API shape. Lists carry no secrets for anyone (they are presented as for a non-administrator); the
 * FIX password goes to administrators reading one connector or writing it, and the TLS material (key,
 * certificate, CA) only in one connector's answer to an administrator (`withTls`).
 */
export function presentConnector(row: ConnectorRow, isAdmin: boolean, withTls = false): ClientConnector {
  const { tls_expires_at: _expires, ...rest } = row;
  const tls = isAdmin && withTls;
  return {
    ...rest,
    lei: row.client_lei,
    fix_password: isAdmin ? row.fix_password : null,
    tls_key: tls ? row.tls_key : null,
    tls_cert: tls ? row.tls_cert : null,
    tls_ca: tls ? row.tls_ca : null,
    tls_enabled: Boolean(row.tls_cert),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
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
    out.whitelisted_ips = out.whitelisted_ips.split(/[,\s]+/).filter(Boolean).join(',') || null;
  }
  return out;
}

/** Refuses heartbeat fields that disagree with each other, as the row will be once written. */
function checkHeartbeat(values: Partial<Record<ConnectorColumn, unknown>>, existing: Pick<ConnectorRow, keyof typeof HEARTBEAT_DEFAULTS> = HEARTBEAT_DEFAULTS): void {
  const pick = (k: keyof typeof HEARTBEAT_DEFAULTS) => (values[k] as number | undefined) ?? existing[k];
  const problem = heartbeatSettingsProblem({ heartbeatint: pick('heartbeatint'), heartbeat_min_sec: pick('heartbeat_min_sec'), heartbeat_max_sec: pick('heartbeat_max_sec') });
  if (problem) throw badRequest(problem.message, problem.field);
}

function isUniqueViolation(err: unknown, constraint: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  return e.code === '23505' && (e.constraint === constraint || (e.message ?? '').includes(constraint));
}

export function clientConnectorRoutes(app: FastifyInstance, ctx: AppContext): void {
  const isAdmin = (req: FastifyRequest) => req.user?.role === 'admin';

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
        return { ...presentConnector(r, false), live: state };
      }),
    };
  });

  app.get('/api/client-connectors/:comp_id', { config: { access: 'read' } }, async (req) => {
    const { comp_id } = parse(CompIdParamsSchema, req.params, 'params');
    const row = await getConnector(ctx.db, comp_id);
    if (!row) throw notFound(`Client connector ${comp_id} not found`);
    return { success: true, data: presentConnector(row, isAdmin(req), true) };
  });

  app.post('/api/client-connectors', { config: { access: 'admin' } }, async (req) => {
    const input = parse(CreateConnectorSchema, req.body, 'body');
    const values = toColumns(input);
    values.target_comp_id ??= 'FIXDESK';
    checkHeartbeat(values);
    try {
      const row = await insertConnector(ctx.db, input.comp_id, input.execution_id_prefix.toUpperCase(), values);
      ctx.log.info({ compId: row.comp_id, by: req.user?.username }, 'client connector created');
      ctx.events.emit('connector-changed', row.comp_id);
      return { success: true, data: presentConnector(row, true), message: 'Client connector created successfully!' };
    } catch (err) {
      if (isUniqueViolation(err, 'client_connectors_comp_id_key')) throw new HttpError(409, `Component ID ${input.comp_id} already exists`, 'comp_id');
      if (isUniqueViolation(err, 'client_connectors_execution_id_prefix_key')) {
        throw new HttpError(409, `Execution ID prefix ${input.execution_id_prefix.toUpperCase()} is already used by another connector`, 'execution_id_prefix');
      }
      if ((err as { code?: string }).code === '23503') throw badRequest('broker_id does not name a broker', 'broker_id');
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
    try {
      const row = await updateConnector(ctx.db, comp_id, values);
      if (!row) throw notFound(`Client connector ${comp_id} not found`);
      ctx.log.info({ compId: comp_id, by: req.user?.username, fields: Object.keys(input) }, 'client connector updated');
      ctx.events.emit('connector-changed', comp_id);
      return { success: true, data: presentConnector(row, true), message: 'Client connector updated successfully!' };
    } catch (err) {
      if ((err as { code?: string }).code === '23503') throw badRequest('broker_id does not name a broker', 'broker_id');
      if ((err as { code?: string }).code === '23514') throw badRequest(`Value out of range: ${(err as Error).message}`);
      throw err;
    }
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
    await deleteConnector(ctx.db, comp_id);
    ctx.log.info({ compId: comp_id, by: req.user?.username }, 'client connector deleted');
    ctx.events.emit('connector-changed', comp_id);
    return { success: true, message: `Client connector ${comp_id} deleted successfully` };
  });
}
