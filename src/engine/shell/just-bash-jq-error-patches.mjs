// Exact-text corrections to just-bash 3.4.2's jq (its prebuilt bundle): the run-time type errors
// jq 1.6 raises where just-bash gave null or nothing (issue 25). Kept apart from
// just-bash-patches.mjs (which spreads these in) because they form one concept: which values an
// operation refuses, and in jq's words. The same rules as there: each `find` occurs exactly once
// in just-bash's dist/bundle. The value in a message is written by Qtv (JQ_REGEX in
// just-bash-jq-lazy-patches.mjs, inserted in the same chunk): `TYPE (JSON)`, the JSON cut as
// jq's is. A caller that wants the lenient answer writes `?` or `try`, as with jq.

/** One correction each: the exact minified text, what replaces it, and why. */
export const JQ_ERROR_PATCHES = [
  {
    why: "jq 1.6 refuses what it cannot do (JQ_ERROR_PATCHES): `.[]` of a value that is no array or object is `Cannot iterate over null (null)` (just-bash: nothing), so `null | map(.)` and `.missing[]` fail as in jq, and `.[]?` is still empty",
    find: String.raw`return M(t,r,s=>Array.isArray(s)?s:s&&typeof s=="object"?Object.values(s):[])}`,
    replace: String.raw`return M(t,r,s=>{if(Array.isArray(s))return s;if(s&&typeof s=="object")return Object.values(s);throw new Error("Cannot iterate over "+Qtv(s))})}`,
  },
  {
    why: "(map(f) is jq's [.[] | f]: over an object's values too (`{\"a\":1} | map(. + 1)` is [2]), and an error for a value that is neither (just-bash: null for both)",
    find: String.raw`case"map":{if(t.length===0||!Array.isArray(e))return[null];`,
    replace: String.raw`case"map":{if(t.length===0)return[null];if(!Array.isArray(e)){if(e===null||typeof e!="object")throw new Error("Cannot iterate over "+Qtv(e));e=Object.values(e)}`,
  },
  {
    why: "(`+` of two values jq cannot add, `{} + 1`, is `object ({}) and number (1) cannot be added`; null + x is still x; just-bash: null)",
    find: "?ce(f,i):null;case\"-\":",
    replace: "?ce(f,i):Qbad(f,i,\"added\");case\"-\":",
  },
  {
    why: "(`-` the same: `[1] - 1` is `array ([1]) and number (1) cannot be subtracted`)",
    find: "cannot be subtracted`)}return null;case\"*\":",
    replace: "cannot be subtracted`)}return Qbad(f,i,\"subtracted\");case\"*\":",
  },
  {
    why: "(keys and keys_unsorted of a value that is no array or object: `number (1) has no keys`)",
    find: String.raw`case"keys":return Array.isArray(e)?[e.map((o,p)=>p)]:e&&typeof e=="object"?[Object.keys(e).sort()]:[null];case"keys_unsorted":return Array.isArray(e)?[e.map((o,p)=>p)]:e&&typeof e=="object"?[Object.keys(e)]:[null];`,
    replace: String.raw`case"keys":return Array.isArray(e)?[e.map((o,p)=>p)]:e&&typeof e=="object"?[Object.keys(e).sort()]:Qbad(e,null,"keys");case"keys_unsorted":return Array.isArray(e)?[e.map((o,p)=>p)]:e&&typeof e=="object"?[Object.keys(e)]:Qbad(e,null,"keys");`,
  },
  {
    why: "(length of a boolean: `boolean (true) has no length`)",
    find: String.raw`e===null?[0]:typeof e=="number"?[Math.abs(e)]:[null];`,
    replace: String.raw`e===null?[0]:typeof e=="number"?[Math.abs(e)]:Qbad(e,null,"length");`,
  },
  {
    why: "(has(k) where the key's type does not fit the value's: `Cannot check whether number has a string key`; null has nothing, as in jq 1.6)",
    find: String.raw`e&&typeof e=="object"&&typeof h=="string"?[Object.hasOwn(e,h)]:[!1]}case"in":`,
    replace: String.raw`e&&typeof e=="object"&&!Array.isArray(e)&&typeof h=="string"?[Object.hasOwn(e,h)]:e===null?[!1]:Qbad(e,h,"has")}case"in":`,
  },
  {
    why: "(the messages, in jq 1.6's words)",
    find: "function nt(e,n,t){",
    replace: String.raw`function Qbad(f,i,w){let y=v=>v===null?"null":Array.isArray(v)?"array":typeof v;if(w==="has")throw new Error("Cannot check whether "+y(f)+" has a "+y(i)+" key");if(w==="keys"||w==="length")throw new Error(Qtv(f)+" has no "+w);throw new Error(Qtv(f)+" and "+Qtv(i)+" cannot be "+w)}` + "function nt(e,n,t){",
  },
];
