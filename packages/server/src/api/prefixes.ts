/** Where the query (reads) and command (writes) halves of the API live (API.md). */
export const QUERY_PREFIX = '/query/api';
export const COMMAND_PREFIX = '/command/api';
