/**
 * A call's params as the C-Chain's avax API (../cchain/avax.ts) still takes them: decoded JSON whose values are `any`,
 * only so that the generated params interfaces, which have no index signature, can be handed in. The other handlers
 * name the params they read instead (../world/reads.ts Params), bound to the generated types in ../handlers.ts.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above; `unknown` would refuse every generated params interface
export type UntypedParams = Readonly<Record<string, any>>;
