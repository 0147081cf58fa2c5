import { useCallback, useRef, useState } from 'react';

/**
 * One question at a time, answered yes or no: `ask(question)` resolves true or false once `answer` is
 * called (a newer question answers the one still open with false). What the confirmation dialogs share;
 * each draws its own modal from `asked`.
 */
export function useQuestion<Q>(): { asked: Q | null; ask: (question: Q) => Promise<boolean>; answer: (yes: boolean) => void } {
  const [asked, setAsked] = useState<Q | null>(null);
  const open = useRef<{ question: Q; resolve: (yes: boolean) => void } | null>(null);
  const answer = useCallback((yes: boolean) => {
    const current = open.current;
    open.current = null;
    setAsked(null);
    current?.resolve(yes);
  }, []);
  const ask = useCallback(
    (question: Q) =>
      new Promise<boolean>((resolve) => {
        open.current?.resolve(false);
        open.current = { question, resolve };
        setAsked(question);
      }),
    [],
  );
  return { asked, ask, answer };
}
