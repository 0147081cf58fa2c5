// The planned intake writes a batch of orders and their replies' FIX store rows in one statement that
// is its own transaction (docs/adr/0009). A check that must undo such a statement has to fail inside
// it: this raises with the given message when the condition does not hold.
export default /* sql */ `
CREATE FUNCTION fixdesk_assert(ok boolean, message text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE EXCEPTION '%', message USING ERRCODE = 'check_violation';
  END IF;
  RETURN true;
END
$$;
`;
