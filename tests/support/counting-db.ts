import type { Db, Queryable } from '@fixdesk/db';

/** A database handle that counts the statements run through it (and through its transactions), in all and by their text. */
export interface CountingDb {
  readonly db: Db;
  /** Statements run so far. */
  statements(): number;
  /** Statements run so far whose text contains `fragment`. */
  statementsLike(fragment: string): number;
}

export function countingDb(db: Db): CountingDb {
  let n = 0;
  const texts: string[] = [];
  const wrap = (q: Queryable): Queryable => ({
    query: (sql, params, options) => {
      n++;
      texts.push(sql);
      return q.query(sql, params, options);
    },
  });
  const counted: Db = Object.assign(Object.create(db) as Db, {
    query: wrap(db).query,
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction((tx) => fn(wrap(tx))),
  });
  return {
    db: counted,
    statements: () => n,
    statementsLike: (fragment) => texts.filter((t) => t.includes(fragment)).length,
  };
}
