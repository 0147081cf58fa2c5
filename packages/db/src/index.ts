// @fixdesk/db: the database behind FixDesk. Every SQL statement of the product lives in this package
// (lint refuses .query() elsewhere); the apps call the functions below. Listed by name on purpose: SQL
// fragment builders and their parameter-numbering contracts stay inside.

// ── connection, schema, first-start data ──
export {
  openDb,
  type DatabaseKind,
  type Db,
  type OpenDbOptions,
  type PoolStats,
  type Queryable,
  type QueryOptions,
  type QueryResult,
} from './db';
export type { ModeChange } from './data-dir-permissions';
export { CheckViolation, ConstraintViolation, ForeignKeyViolation, UniqueViolation, type ConstraintKind } from './constraint-errors';
export { migrate, type MigrationReport } from './migrate';
export { seed, type SeedOptions, type SeedReport, type SeedUser } from './seed';
export type { DictionaryData, DictionaryItem } from './seed-dictionary';
export { pingDatabase } from './repos/health';

// ── users and sign-in ──
export {
  deleteUser,
  findTraderParty,
  findUserByUsername,
  getPasswordHash,
  getUserById,
  insertUser,
  listUsers,
  lockActiveAdmins,
  recordLogin,
  updateUser,
  userHasOrderActions,
  type TraderParty,
  type UserRow,
  type UserWithHash,
  type UserWrite,
} from './repos/users';
export {
  beginSignInAttempt,
  createAuthSession,
  findActiveSession,
  finishSignInAttempt,
  listUserSessions,
  revokeAuthSession,
  revokeUserSession,
  revokeUserSessions,
  type ActiveSession,
  type UserSessionRow,
  type NewAuthSession,
  type SignInAttempt,
} from './repos/auth-sessions';

// ── broker information and contacts ──
export {
  brokerReferences,
  deleteBroker,
  deleteContact,
  getBrokerById,
  getContact,
  insertBroker,
  insertContact,
  listContacts,
  updateBroker,
  updateContact,
} from './repos/brokers';

// ── client connectors and their FIX sessions ──
export {
  connectorExists,
  connectorSessionTypes,
  countConnectorOrders,
  dropCopiesNaming,
  deleteConnector,
  getConnector,
  getConnectorAndBroker,
  getOrderConnector,
  insertConnector,
  listConnectorIdentities,
  listConnectors,
  listOpenDayOrders,
  updateConnector,
  CONNECTOR_WRITABLE,
  type ConnectorAndBrokerRow,
  type ConnectorColumn,
  type ConnectorIdentityRow,
  type ConnectorRow,
  type OpenDayOrderRow,
  type OrderConnectorRow,
} from './repos/connectors';
export {
  countDropCopiesOwed,
  countUnsentDropCopies,
  listDropCopyCovers,
  markDropCopiesSent,
  newestUnsentDropCopyId,
  storeDropCopiesSent,
  storeRefusalCopies,
  unsentDropCopies,
  type CopiedOrderRow,
  type CopiedReportRow,
  type DropCopyCoverRow,
  type DropCopyQueueRow,
  type RefusalCopyFacts,
  type RefusalTerms,
  type RefusalToCopy,
  type UnsentDropCopy,
} from './repos/drop-copies';
export {
  deleteConnectorLogo,
  getConnectorLogo,
  saveConnectorLogo,
  type ConnectorLogoRow,
  type ConnectorLogoWrite,
} from './repos/connector-logos';
export {
  closeClientSession,
  closeSessionsOfStoppedProcess,
  listStoredSequenceNumbers,
  openClientSession,
  recordRefusedLogon,
  sessionConnection,
  sessionsConnectedAt,
  storedSequenceNumbers,
  type StoredSessionKey,
} from './repos/client-sessions';
export { PgMessageStoreFactory, storedNextSenderSeq, type PgMessageStoreOptions, type ReservedOutbound } from './fix-message-store';
export {
  acquireLease,
  fixSessionLeaseName,
  isFencedOut,
  getLeases,
  jobLeaseName,
  leaseSubject,
  listLeases,
  liveNodes,
  reserveLease,
  cancelReservation,
  type LiveNode,
  NODE_LEASE_PREFIX,
  nodeLeaseName,
  releaseLease,
  renewLease,
  renewLeases,
  FENCED_OUT,
  type AcquireResult,
  type LeaseFence,
  type LeaseRow,
} from './leases';
export { latestOrderActivity, notifyNodes, ordersChangedAfter, refusedOrdersAfter } from './repos/node-notify';
export { deskPresence, replaceNodePresence, type PresentUser } from './repos/browser-presence';

// ── client FIX defaults ──
export {
  deleteClientDefault,
  deleteGroupInstance,
  getClientDefault,
  getComponentBlock,
  getFieldInfo,
  insertClientDefault,
  insertGroupInstance,
  listClientDefaults,
  listGroupDefaults,
  listMandatoryFields,
  listProfileDefaults,
  listProfileGroupFields,
  updateClientDefault,
  type ComponentBlockRow,
  type FieldInfoRow,
  type GroupInstanceFieldRow,
  type ProfileGroupFieldRow,
} from './repos/client-defaults';

// ── reference data ──
export {
  findSecurity,
  latestPrices,
  listBrokers,
  listFixEnums,
  listFixFields,
  listMessageSpecs,
  repeatingGroupFields,
  type SecurityRow,
} from './repos/reference';

// ── orders: rows, the intake, one order at a time, the list read model ──
export type {
  ExecReportRow,
  NewOrderLeg,
  NewOrderParty,
  NewOrderRecord,
  OrderLegRow,
  OrderPartyRow,
  OrderRequestRow,
  OrderRow,
} from './repos/orders/rows';
export { clordidUsedOnDay, nextExecIds } from './repos/orders/ids';
export { storeIntakeBatch, type ExistingOrderFacts, type IntakeEntry, type IntakeOutcome } from './repos/orders/intake-batch';
export { ClOrdIdIndex, IntakeIdPool, intakeNeeds, planIntake, stampPlannedIntake, type PlannedIntake } from './repos/intake-plan';
export { storeIntakeReportsWithReplies, storePlannedIntakeWithReplies } from './repos/orders/intake-replies';
export { getRefusedOrderRow, getRefusedOrderRows, storeRefusedOrders, type RefusedOrderRecord } from './repos/orders/refused';
export {
  orderTimelineRows,
  type OrderTimelineRows,
  type TimelineActionRow,
  type TimelineOrderRow,
  type TimelineReportRow,
} from './repos/orders/timeline';
export {
  clOrdIdTakenByOtherOrder,
  decideOrderRequest,
  findOrderByClOrdId,
  hasLegFills,
  insertCancelReject,
  insertExecReport,
  insertOrderAction,
  insertOrderRequest,
  insertTrade,
  listOrderLegs,
  lockOrder,
  markCancelRejectSent,
  markExecReportsSent,
  markExecReportUnsent,
  orderFillTotals,
  pendingOrderRequest,
  unsentCancelRejects,
  unsentExecReports,
  unsentExecReportsWithOrders,
  updateLeg,
  updateOrder,
  type ExecutingTrader,
  type NewExecReport,
  type NewOrderAction,
  type OrderUpdate,
  type UnsentCancelRejectRow,
} from './repos/orders/writes';
export {
  getOrderBundle,
  getOrderBundles,
  getExecReports,
  listOrderRows,
  listOrders,
  type OrderBundle,
  type OrderListFilter,
  type TextRow,
} from './repos/orders/list';
export { presentExecReport, presentOrders } from './repos/orders/present';
export { orderListJson, refusedOrdersFromRows } from './repos/orders/list-json';

// ── compliance reads ──
export {
  getOrderAction,
  getOrderActions,
  countFixMessages,
  listFixMessages,
  listOrderActions,
  countOrderActions,
  listSessionMessages,
  presentFixMessage,
  type FixMessageFilter,
  type FixMessageRow,
  type OrderActionFilter,
} from './repos/audit';
export { fixFieldDescriptions, getFixMessageText, type StoredFixMessageText } from './repos/fix-message-detail';
export { redactFix } from './redact-fix';

export { listAuditAccess, recordAuditAccess, type AuditAccess, type AuditAccessAction, type AuditAccessRow } from './repos/audit-access';

// ── reference data: the security master and the FIX message specifications ──
export {
  countSecurityOrders,
  deleteSecurity,
  findSecurityBySymbol,
  getSecurityById,
  insertSecurity,
  listReferenceChanges,
  listSecurities,
  lockOrdersForCount,
  recordReferenceChange,
  SECURITY_COLUMNS,
  updateSecurity,
  type ReferenceChange,
  type ReferenceChangeRow,
  type ReferenceEntity,
  type SecurityColumn,
  type SecurityWrite,
} from './repos/security-master';
export {
  componentBlockFields,
  componentBlocksByName,
  deleteMessageSpec,
  getFixField,
  getMessageSpec,
  insertMessageSpec,
  MESSAGE_SPEC_COLUMNS,
  updateMessageSpec,
  type FixFieldRow,
  type MessageSpecColumn,
  type MessageSpecWrite,
} from './repos/fix-message-specs';

// ── the compliance record's seals (ADR 0010) ──
export {
  chainHash,
  genesisHash,
  SEAL_BLOCK_ROWS,
  SEALED_TABLES,
  sealPending,
  verifyChain,
  type ChainVerdict,
  type SealedTable,
} from './audit/seals';

// ── the desk's certificates and the session console's audit trail ──
export {
  getPki,
  insertPkiOnce,
  replacePki,
  setConnectorCertificate,
  type ConnectorCertificate,
  type PkiKind,
  type PkiRow,
} from './repos/desk-pki';
export {
  lastSessionMessages,
  listSessionOperations,
  recordSessionOperation,
  type LastMessageRow,
  type SessionOperation,
  type SessionOperationAction,
  type SessionOperationRow,
} from './repos/session-operations';

// ── service status figures ──
export { orderAcceptTimesSince, type AcceptTimes } from './repos/service-figures';

// ── desk insights (one statement per chart) ──
export { insightsClients, insightsContracts, insightsFixSessions, insightsOrderFlow, insightsTimeToAnswer } from './repos/insights';
export {
  countCapabilities,
  deleteCapability,
  getCapability,
  insertCapability,
  listCapabilities,
  listClientCapabilities,
  updateCapability,
  type CapabilityValues,
  type ClientCapabilityRow,
} from './repos/capabilities';
export {
  getRiskOrders,
  loadClientRisk,
  setClientStop,
  workingOrderIds,
  type ClientRiskRows,
  type ClientStop,
  type RiskOrderRow,
} from './repos/risk';
export {
  deleteClientSession,
  getClientSession,
  insertClientSession,
  listClientSessions,
  toClientSessionRecord,
  updateClientSession,
  type ClientSessionRow,
} from './repos/client-session-records';
export {
  getFixSpecDocumentModel,
  insertFixSpecDocument,
  listFixSpecDocuments,
  nextFixSpecVersion,
  type FixSpecDocumentRecord,
  type FixSpecDocumentRow,
} from './repos/fix-spec-documents';
export { tablesDueForUpkeep, tradingWrites, upkeepTable, type TableUpkeepDue } from './repos/table-upkeep';
export {
  analyzeInsightsRollups,
  HISTOGRAM_RELATIVE_ERROR,
  rollUpInsights,
  rollUpInsightsFully,
  type RollupOptions,
  type RollupStep,
} from './repos/insights-rollup';
