import type { ApiExample, ApiExtension, JsonSchema, StrayPart } from "../openapi/model.js";

/** A message an AsyncAPI channel carries. */
export interface AsyncMessage {
  readonly name: string;
  readonly title?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly contentType?: string;
  readonly payload?: JsonSchema;
  readonly headers?: JsonSchema;
  /** Protocol-specific fields by protocol (`kafka: {key: ...}`), its traits' included. */
  readonly bindings?: Readonly<Record<string, unknown>>;
  readonly examples: readonly ApiExample[];
}

/**
 * Messages an operation names on one channel (`AsyncChannel.scope`). A message is read once a
 * spec load however many channels carry it (one object), so the channel it is named on is said
 * beside it: an open operation naming it on another channel shows it on that channel's page, not
 * on this one, where a restricted operation may carry it.
 */
export interface AsyncMessageUse {
  readonly scope: number;
  readonly messages: readonly AsyncMessage[];
}

/** An operation on a channel: 3.x `send`/`receive`, 2.x `publish`/`subscribe`. */
export interface AsyncOperation {
  readonly id: string;
  readonly action: string;
  readonly summary?: string;
  readonly description?: string;
  /** 2.x: written without `operationId` (its `id` is then `<action> <channel>`, a name no one wrote). */
  readonly unnamed?: true;
  /** Protocol-specific fields by protocol (`mqtt: {qos: 1}`), its traits' included. */
  readonly bindings?: Readonly<Record<string, unknown>>;
  readonly messages: readonly AsyncMessage[];
  /**
   * The messages (the very objects of `AsyncChannel.messages`, on any channel) this operation
   * carries, each with the channel it names it on (`scope`): 2.x its own `message`; 3.x those its
   * `messages` names (all of the channel's when it names none) and its `reply` names (all of the
   * reply channel's when it names none). A message only operations left off their page carry is
   * left off every page too.
   */
  readonly uses: readonly AsyncMessageUse[];
  /**
   * Every channel message holding an object this operation carries (3.x: under any key, by
   * identity). Wider than `uses` on purpose: it only ever hides a message (one a restricted
   * operation carries), while `uses`, which shows one, holds only what the operation names by key.
   */
  readonly touches: readonly AsyncMessage[];
  /**
   * `x-svc` (or `x-mint`) on the operation: its `metadata.groups` restricts the operation (its
   * channel's page leaves it out; the mounted spec keeps it for those groups only).
   */
  readonly extension?: ApiExtension;
}

/** A channel: one generated page, listing its operations and messages. */
export interface AsyncChannel {
  /** The channel's key in `channels` (what entries name). */
  readonly id: string;
  /** 3.x `address` (2.x: the key itself). */
  readonly address: string;
  readonly title?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly parameters: readonly { readonly name: string; readonly description?: string; readonly schema?: JsonSchema }[];
  readonly operations: readonly AsyncOperation[];
  readonly messages: readonly AsyncMessage[];
  /**
   * Which channel its messages are named on (`AsyncMessageUse.scope`): one number for each
   * channel object (3.x: two keys holding one channel object are one channel, and share it).
   */
  readonly scope: number;
  /** Protocol-specific fields by protocol (`amqp: {is: routingKey, ...}`). */
  readonly bindings?: Readonly<Record<string, unknown>>;
  /** Server names the channel is limited to (all servers when empty, unless `serversNotShown`). */
  readonly servers: readonly string[];
  /** Every server it named is one its readers are not shown (`x-svc-servers`, `security-not-shown.ts`): on none they may see. */
  readonly serversNotShown?: true;
  readonly hidden: boolean;
  /** `x-svc` (or `x-mint`): `metadata` gives the page's front matter (`title`, `groups`, `public`...). */
  readonly extension?: ApiExtension;
  /** JSON pointer of the channel in its spec. */
  readonly pointer: string;
}

export interface AsyncServer {
  readonly name: string;
  /** `host` + `pathname` (3.x) or `url` (2.x). */
  readonly url: string;
  readonly protocol: string;
  readonly description?: string;
  /** `variables` of the URL, in the order written. */
  readonly variables?: readonly AsyncServerVariable[];
}

export interface AsyncServerVariable {
  readonly name: string;
  readonly default?: string;
  /** `enum`: the values allowed (empty: any). */
  readonly values: readonly string[];
  readonly description?: string;
}

/** A loaded AsyncAPI document. */
export interface AsyncSpec {
  readonly format: "asyncapi";
  readonly source: string;
  /** `2.6.0`, `3.1.0`. */
  readonly version: string;
  readonly title: string;
  readonly description?: string;
  readonly servers: readonly AsyncServer[];
  readonly channels: readonly AsyncChannel[];
  /** Restricting `x-svc` rules written where no page is made from them (`strayMetadataParts`). */
  readonly strayParts?: readonly StrayPart[];
}
