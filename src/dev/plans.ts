/**
 * How long a data call may run on each of the site's plans, in seconds: the data API's documented
 * timeouts (5 s on CMS collections for free and most premium plans, 10 s on the top ones). One table for
 * the local platform's production profile and for sitefx/dev, kept free of any import so a page that
 * reads it carries nothing else.
 */
export const PLAN_TIMEOUT_SECONDS: Readonly<Record<"free" | "premium" | "elite", number>> = { free: 5, premium: 5, elite: 10 }
