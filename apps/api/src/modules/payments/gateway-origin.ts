import type { TenantGatewayRow } from './repository.ts';

/** Redsys' hosts (redsys-notes, "Hosts"): the browser's payment page and the server-to-server services. */
export const redsysHosts = {
  test: 'https://sis-t.redsys.es:25443',
  production: 'https://sis.redsys.es',
} as const;

/** Where a tenant's gateway lives: the local simulator, Redsys' test host or its production host. */
export function gatewayOrigin(
  environment: TenantGatewayRow['redsys_environment'],
  simulatorUrl: string,
): string {
  return environment === 'simulator' ? simulatorUrl : redsysHosts[environment];
}
