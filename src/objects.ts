// Object helpers for hot paths, each the same value as the literal it stands for.

/**
 * `{ ...object, [key]: value }`: the same members in the same order (a member `object` has keeps
 * its place and takes `value`). V8 clones a spread literal that adds a member through its slow
 * path, ~5 times slower than `Object.assign`: a search call made eleven of them, and
 * `JSON.stringify` wrote its answer from those copies ~20% slower too (issue 23; measured on
 * spree's real answers, not explained).
 * `Object.assign` sets where the literal defines, which differs only for an own `"__proto__"`
 * member (it would set the copy's prototype): such an object is copied by the literal itself.
 */
export function withMember<T extends object, K extends string, V>(object: T, key: K, value: V): T & Record<K, V> {
  if (Object.hasOwn(object, "__proto__")) return { ...object, [key]: value } as T & Record<K, V>;
  const added = {} as Record<K, V>;
  added[key] = value;
  return Object.assign({}, object, added);
}
