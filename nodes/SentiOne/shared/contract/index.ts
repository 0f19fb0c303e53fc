/**
 * The API contract as the node reads it: every path, parameter name, enum and limit of the
 * SentiOne Listen API v2 lives in this folder and nowhere else, with the words the node reads in
 * SentiOne's texts beside them. The decisions behind the values that the specification leaves
 * open are recorded in docs/api-contract.md (ids D-nn); a change by the vendor is one edit here:
 * - endpoints.ts: one row per endpoint (route, budget group, tier, read or write, confirmed or
 *   announced), the tiers and the budgets; everything else is derived from it;
 * - fields.ts: parameter and field names, enums, lengths, windows, the shapes not shown;
 * - access.ts: the credential, the API root, the key's header and shape;
 * - apiTexts.ts: the words of SentiOne's refusals the node tells apart (401 causes, 429 kinds),
 *   and what servers that are not SentiOne's answer (the credential test);
 * - unconfirmed.ts: each guess, and what the node does when SentiOne disagrees.
 */
export * from './access';
export * from './apiTexts';
export * from './endpoints';
export * from './fields';
export * from './unconfirmed';
