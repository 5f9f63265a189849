/** The platform's own headers, by their lower-case names (a transport's answer keeps names lower-case). */
export const REQUEST_ID_HEADER = "x-wix-request-id"
export const CONSISTENT_HEADER = "x-wix-consistent"
