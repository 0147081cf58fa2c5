import { useEffect, useState } from 'react';

export type Chunk<T> = { status: 'loading' } | { status: 'ready'; module: T } | { status: 'error'; error: string };

/**
 * A code-split module as state. React.lazy with Suspense would do, except that React holds back
 * revealing a boundary's content for up to 300 ms after its fallback showed (Suspense throttling):
 * the grid arriving just after the orders then waited that long before it was even created.
 */
export function useChunk<T>(load: () => Promise<T>): Chunk<T> {
  const [chunk, setChunk] = useState<Chunk<T>>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    load().then(
      (module) => current && setChunk({ status: 'ready', module }),
      (error: unknown) => current && setChunk({ status: 'error', error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [load]);
  return chunk;
}
