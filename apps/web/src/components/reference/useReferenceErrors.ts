import { useCallback, useMemo, useState } from 'react';

/**
 * The failed reference loads of a screen, by load: `failed(key, error)` records one ('FIX Enums API
 * failed: 503'); `errors` goes to ReferenceLoadNotice.
 */
export function useReferenceErrors() {
  const [byKey, setByKey] = useState<Readonly<Record<string, string>>>({});
  const failed = useCallback(
    (key: string, error: unknown) => setByKey((e) => ({ ...e, [key]: error instanceof Error ? error.message : String(error) })),
    [],
  );
  const errors = useMemo(() => Object.values(byKey), [byKey]);
  return { errors, failed };
}
