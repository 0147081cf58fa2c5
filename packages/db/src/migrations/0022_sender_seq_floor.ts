// A session's next sender number is read from the messages it stored (docs/adr/0016): the state row's
// next_sender_seq, or one past the highest number sent in the current numbering, whichever is greater.
// An operator who sets the number lower means the messages stored until then no longer count:
// sender_seq_floor_id is the highest fix_messages id at that set (0: every message of the numbering).
export default /* sql */ `
ALTER TABLE fix_session_state ADD COLUMN sender_seq_floor_id bigint NOT NULL DEFAULT 0;
`;
