/**
 * sitefx/members: site members administered with an API key (list, stream, query, get, approve,
 * block). The functions need only the `PlatformClient` that `Site.apiKey` provides.
 */
export * as Members from "./Members.ts"
export { MembersCodes, MembersError, type MembersFailure } from "./MembersError.ts"
