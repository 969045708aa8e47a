/** The catch-all route: the top route does not save it as the last visited path. */
export const unknownPathRouteId = 'unknown-path';
