/**
 * Every path of the web app (spec §2 "Route table"): the contract's table, which the server writes
 * its links with too (packages/contract/src/app-paths.ts). The router and every link read it here.
 */
export { appPaths as paths } from '@portal/contract/app-paths';
