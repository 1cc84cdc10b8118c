/**
 * A call's params as the dev controls (../engine/dev.ts, ../engine/dev-edits.ts) and the C-Chain's avax API
 * (../cchain/avax.ts) still take them: decoded JSON whose values are `any`, only so that the generated params
 * interfaces, which have no index signature, can be handed in. The world's reads name the params they read instead
 * (../world/reads.ts Params), bound to the generated types where the reads become handlers (../handlers.ts).
 */
// biome-ignore lint/suspicious/noExplicitAny: see above; `unknown` would refuse every generated params interface
export type UntypedParams = Readonly<Record<string, any>>;
