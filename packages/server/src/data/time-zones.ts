/** The zone of a place whose city and country name none. */
export const FALLBACK_TIME_ZONE = 'UTC';
