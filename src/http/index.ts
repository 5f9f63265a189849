/**
 * `sitefx/http`: how sitefx reaches the platform. The configuration (base URLs, retries), the one error
 * model (PlatformError, the reasons every module's error shares, `codeOf`), the request and transport shapes for raw calls and custom transports, and the
 * client those calls go through. Everything else in this folder is the client's own machinery.
 */
export {
  DEFAULT_API_URL,
  DEFAULT_EDGE_URL,
  defaultRetryPolicy,
  PlatformConfig,
  PlatformConfigError,
  type PlatformConfigOptions,
  type PlatformConfigShape,
  type RetryPolicy
} from "./PlatformConfig.ts"
export { PlatformError } from "./PlatformError.ts"
export {
  AnswerError,
  ApplicationError,
  ArgumentError,
  codeOf,
  type FailureReason,
  type PlatformErrorReason,
  type RefusalReason,
  SystemError,
  TransportError,
  type TransportKind,
  ValidationError
} from "./reasons.ts"
export { FailureCodes, Refusal } from "./Refusal.ts"
export type { Rule } from "./rule.ts"
export type { Host, Method, PlatformRequest, QueryFallback, WireRequest } from "./PlatformRequest.ts"
export {
  fetchTransport,
  PlatformFetch,
  PlatformHttp,
  type PlatformHttpShape,
  type PlatformResponse,
  type Transport,
  type TransportRequest,
  type TransportResponse,
  withTimeout
} from "./PlatformHttp.ts"
export { ApiKeyAuth, type ApiKeyOptions, PlatformAuth, type PlatformAuthShape, PlatformClient, type PlatformClientShape } from "./PlatformClient.ts"
export { httpClientTransport, viaHttpClient } from "./viaHttpClient.ts"
export { makeRateLimiter, type Pace, pacedTransport, type PacingStats, parseRateLimit, PLATFORM_RATE_LIMIT, type RateLimit, type RateLimiter } from "./RateLimit.ts"
export * as Wire from "./wire.ts"
export { decodeJson } from "./decodeJson.ts"
