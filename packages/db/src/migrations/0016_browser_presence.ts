// Desk-wide users online (docs/adr/0012): each node keeps here how many signed-in browser
// connections each user has on it. A node's rows count only while the node holds its live
// 'node:<id>' lease, so the users of a node that died drop out when its lease runs out; a node
// replaces its own rows whenever its connections change (and empties them when it starts).
export default /* sql */ `
CREATE TABLE browser_presence (
  node_id     text NOT NULL,
  user_id     integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  connections integer NOT NULL CHECK (connections > 0),
  PRIMARY KEY (node_id, user_id)
);
`;
