// Rebalancing a returning node's sessions (docs/adr/0012): a node handing a client's session
// over to another reserves the lease for it before it logs the client out. While the reservation is
// fresh (and the node it names is live), only that node may acquire the lease, so the client's next
// logon lands there and not back on the node it just left. Kept after it lapsed unused: the attempt
// is not repeated towards the same node until that node restarts.
export default /* sql */ `
ALTER TABLE leases ADD COLUMN reserved_for text, ADD COLUMN reserved_until timestamptz;
`;
