import { parse, protocol, type PGlite, type QueryOptions as PgliteQueryOptions, type Results } from '@electric-sql/pglite';

// Named statements on PGlite, as node-postgres keeps them on PostgreSQL: a statement the repositories
// run under a name (QueryOptions.name: the hot ones, the intake's and the FIX store's) is parsed once
// and then bound and executed by its name, so PostgreSQL keeps its plan. PGlite's own query() parses,
// analyses and plans every statement each time: for the intake's one-statement batches that was a third
// of the statement's time on the embedded database (measured on the order benchmark's full speed).
//
// It speaks the extended protocol through PGlite's public pieces (execProtocolStream, the protocol's
// serializer, parseResults) under PGlite's own locks, as PGlite's query() does: Parse (first time only)
// and Describe, then Bind, Describe, Execute and always a Sync; outside a transaction the database is
// then synced to its files, as query() does. The locks are PGlite's `_runExclusiveTransaction` (taken by
// query() and held by a transaction) and `_runExclusiveQuery` (taken by each statement): in its typed
// interface, but underscored, so an upgrade of PGlite must keep pglite-named.test.ts passing.

/** One PGlite's named statements: their parameter types by name, since each was parsed. */
export class PgliteNamedStatements {
  private readonly paramTypes = new Map<string, number[]>();
  /** Parsed (they last as long as the connection, whatever becomes of the transaction that parsed them). */
  private readonly parsed = new Set<string>();
  /** The text each name was first run with: one name, one text (node-postgres refuses a second one too). */
  private readonly texts = new Map<string, string>();

  constructor(private readonly lite: PGlite) {}

  /** Runs `sql` as the named statement `name`; `inTransaction`: inside a transaction callback (whose lock is held). */
  async query<T>(
    name: string,
    sql: string,
    params: readonly unknown[],
    options: PgliteQueryOptions | undefined,
    inTransaction: boolean,
    replan = false,
  ): Promise<Results<T>> {
    const text = this.texts.get(name);
    if (text === undefined) this.texts.set(name, sql);
    else if (text !== sql) throw new Error(`Prepared statement ${name} was already run with another text`);
    const run = () => this.lite._runExclusiveQuery(() => this.run<T>(name, sql, params, options, inTransaction, replan));
    if (inTransaction) return run();
    await this.lite._checkReady();
    return this.lite._runExclusiveTransaction(run);
  }

  private async run<T>(
    name: string,
    sql: string,
    params: readonly unknown[],
    options: PgliteQueryOptions | undefined,
    inTransaction: boolean,
    replan: boolean,
  ): Promise<Results<T>> {
    const lite = this.lite;
    const exec = (message: Uint8Array) => lite.execProtocolStream(message, { syncToFs: false });
    const messages = [];
    // Planned at the bind for its own parameters, when asked, instead of by the cached generic plan
    // (a simple query of its own, before the extended protocol's messages; reset to the default after
    // their Sync: the desk sets no plan_cache_mode of its own).
    if (replan) await exec(protocol.serialize.query('SET plan_cache_mode = force_custom_plan'));
    try {
      let types = this.paramTypes.get(name);
      if (!types) {
        if (!this.parsed.has(name)) {
          messages.push(...(await exec(protocol.serialize.parse({ name, text: sql }))));
          this.parsed.add(name);
        }
        types = parse.parseDescribeStatementResults(await exec(protocol.serialize.describe({ type: 'S', name })));
        this.paramTypes.set(name, types);
      }
      const values = params.map((param, i) => {
        if (param === null || param === undefined) return null;
        const serialize = lite.serializers[types[i]!];
        return serialize ? serialize(param) : String(param as string | number | boolean);
      });
      messages.push(
        ...(await exec(protocol.serialize.bind({ statement: name, values }))),
        ...(await exec(protocol.serialize.describe({ type: 'P' }))),
        ...(await exec(protocol.serialize.execute({}))),
      );
    } catch (err) {
      throw Object.assign(err as Error, { query: sql });
    } finally {
      try {
        messages.push(...(await exec(protocol.serialize.sync())));
      } finally {
        if (replan)
          await lite.execProtocolStream(protocol.serialize.query('RESET plan_cache_mode'), { syncToFs: false, throwOnError: false });
      }
    }
    if (!inTransaction) await lite.syncToFs();
    return parse.parseResults(messages, lite.parsers, options)[0] as Results<T>;
  }
}
