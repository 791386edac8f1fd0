// Exact-text corrections to just-bash 3.4.2's jq (its prebuilt bundle): the order and equality of
// values as jq 1.6 has them, computed in steps the work budget counts (issue 25). Kept apart from
// just-bash-patches.mjs (which spreads these in) because they form one concept: jq's comparison.
// The same rules as there: each `find` occurs exactly once in just-bash's dist/bundle.

/**
 * JQ_ORDER: jq's total order of values (jv_cmp), one step of the work budget per node compared.
 * just-bash compared with JSON.stringify (==, unique, group_by, unique_by, array `-`) and with
 * a recursive comparator that nothing counted (sort, sort_by, <): on a tree built by sharing
 * (`[range(30)] as $a | reduce range(20) as $i ($a; [., .])`, 2^20 arrays held as 20) one `==`
 * or `unique` walked 31 million nodes in one native step, which only the call's clock ended.
 * Counted, it stops at the work limit, exit 124, on any machine. The order is jq's: null, false,
 * true, numbers (nan below every number, as jq sorts it), strings by code point (UTF-8 byte
 * order; just-bash used localeCompare: "a" < "B" was true), arrays element by element then by
 * length, objects by their sorted key lists and then their values key by key (so == ignores key
 * order: {"a":1,"b":2} == {"b":2,"a":1}; just-bash's JSON text said false).
 * - Qk: the running query's coverage writer (the call's budget), set by each evaluation step
 *   (d) and restored after it, so a comparison outside a query counts nowhere.
 * - Qsc: strings in code point order (UTF-16 units reordered so surrogates sort above U+FFFF).
 * - Qg: the groups of equal keys of e's elements (k[i] is element i's key), in key order,
 *   stable: group_by, and unique/unique_by take each group's first element.
 */
const JQ_ORDER = String.raw`let Qk;function Qsc(a,b){if(a===b)return 0;let n=Math.min(a.length,b.length);n>255&&Qk?.charge?.("jq:compare",n>>>8);for(let i=0;i<n;i++){let x=a.charCodeAt(i),y=b.charCodeAt(i);if(x!==y){x>=55296&&(x=x<57344?x+8192:x-2048);y>=55296&&(y=y<57344?y+8192:y-2048);return x<y?-1:1}}return a.length<b.length?-1:a.length>b.length?1:0}function Qg(e,k){let o=e.map((h,i)=>i).sort((a,b)=>Z(k[a],k[b])||a-b),g=[];for(let i of o)g.length>0&&Z(k[g[g.length-1][0]],k[i])===0?g[g.length-1].push(i):g.push([i]);return g.map(x=>x.map(i=>e[i]))}function Z(e,n){Qk?.hit("jq:compare");let t=u=>u===null?0:u===!1?1:u===!0?2:typeof u=="number"?3:typeof u=="string"?4:Array.isArray(u)?5:typeof u=="object"?6:7,r=t(e),s=t(n);if(r!==s)return r<s?-1:1;switch(r){case 3:return e!==e?-1:n!==n?1:e<n?-1:e===n?0:1;case 4:return Qsc(e,n);case 5:{let m=Math.min(e.length,n.length);for(let u=0;u<m;u++){let f=Z(e[u],n[u]);if(f!==0)return f}return e.length<n.length?-1:e.length>n.length?1:0}case 6:{let u=Object.keys(e),f=Object.keys(n);Qk?.charge?.("jq:compare",(u.length+f.length)>>>4);u.sort(Qsc),f.sort(Qsc);let c=Z(u,f);if(c!==0)return c;for(let i of u)if(c=Z(e[i],n[i]),c!==0)return c;return 0}}return 0}`;

/** One correction each: the exact minified text, what replaces it, and why. */
export const JQ_ORDER_PATCHES = [
  {
    why: "jq's order of values, counted per node (JQ_ORDER): sort, sort_by, min, max and < compare as jq 1.6 does (strings by code point, nan lowest, objects by their keys), one work step per node, so comparing a huge shared tree stops at the work limit",
    find: String.raw`function Z(e,n){let t=u=>u===null?0:typeof u=="boolean"?1:typeof u=="number"?2:typeof u=="string"?3:Array.isArray(u)?4:typeof u=="object"?5:6,r=t(e),s=t(n);if(r!==s)return r-s;if(typeof e=="number"&&typeof n=="number")return e-n;if(typeof e=="string"&&typeof n=="string")return e.localeCompare(n);if(typeof e=="boolean"&&typeof n=="boolean")return(e?1:0)-(n?1:0);if(Array.isArray(e)&&Array.isArray(n)){for(let u=0;u<Math.min(e.length,n.length);u++){let f=Z(e[u],n[u]);if(f!==0)return f}return e.length-n.length}let o=S(e),p=S(n);if(o&&p){let u=Object.keys(o).sort(),f=Object.keys(p).sort();for(let i=0;i<Math.min(u.length,f.length);i++){let c=u[i].localeCompare(f[i]);if(c!==0)return c}if(u.length!==f.length)return u.length-f.length;for(let i of u){let c=Z(o[i],p[i]);if(c!==0)return c}}return 0}`,
    replace: JQ_ORDER,
  },
  {
    why: "(== and != are that order's equality: key order does not matter, {\"a\":1,\"b\":2} == {\"b\":2,\"a\":1} is true; just-bash compared JSON texts in one uncounted native step; index, contains and inside use it too)",
    find: String.raw`function J(e,n){return JSON.stringify(e)===JSON.stringify(n)}function Y(e,n){return typeof e=="number"&&typeof n=="number"?e-n:typeof e=="string"&&typeof n=="string"?e.localeCompare(n):0}`,
    replace: String.raw`function J(e,n){return Z(e,n)===0}function Y(e,n){return Z(e,n)}`,
  },
  {
    why: "(< <= > >= compare any two values in that order: [1] < [2] and null < false are true; just-bash compared numbers and strings only, anything else as equal)",
    find: String.raw`try{let s=nt(e,n,r);return D(r,0,s.length),s}finally{r.budget.callDepth--}}`,
    replace: String.raw`let Qp=Qk;Qk=r.coverage;try{let s=nt(e,n,r);return D(r,0,s.length),s}finally{r.budget.callDepth--,Qk=Qp}}`,
  },
  {
    why: "(unique sorts and keeps one of each equal run, as jq: [3,1,1,2] | unique is [1,2,3]; just-bash kept the first of each JSON text in input order, uncounted)",
    find: String.raw`case"unique":if(Array.isArray(e)){let o=new Set,p=[];for(let u of e){let f=JSON.stringify(u);o.has(f)||(o.add(f),p.push(u))}return[p]}return[null];`,
    replace: String.raw`case"unique":return Array.isArray(e)?[Qg(e,e).map(x=>x[0])]:[null];`,
  },
  {
    why: "(sort_by computes each key once, as all of f's outputs ([f], as jq), and keeps equal keys in input order)",
    find: String.raw`case"sort_by":return!Array.isArray(e)||t.length===0?[null]:[[...e].sort((h,a)=>{let l=s(h,t[0],r)[0],y=s(a,t[0],r)[0];return p(l,y)})];`,
    replace: String.raw`case"sort_by":{if(!Array.isArray(e)||t.length===0)return[null];let k=e.map(h=>s(h,t[0],r));return[e.map((h,i)=>i).sort((a,l)=>p(k[a],k[l])||a-l).map(i=>e[i])]}`,
  },
  {
    why: "(unique_by: the first element of each group of equal keys, in key order)",
    find: String.raw`case"unique_by":{if(!Array.isArray(e)||t.length===0)return[null];let c=new Map;for(let a of e){let l=s(a,t[0],r)[0],y=JSON.stringify(l);c.has(y)||c.set(y,{item:a,key:l})}let h=[...c.values()];return h.sort((a,l)=>p(a.key,l.key)),[h.map(a=>a.item)]}`,
    replace: String.raw`case"unique_by":return!Array.isArray(e)||t.length===0?[null]:[Qg(e,e.map(h=>s(h,t[0],r))).map(x=>x[0])];`,
  },
  {
    why: "(group_by: the groups in key order, as jq; just-bash kept them in order of first appearance)",
    find: String.raw`case"group_by":{if(!Array.isArray(e)||t.length===0)return[null];let c=new Map;for(let h of e){let a=JSON.stringify(s(h,t[0],r)[0]);c.has(a)||c.set(a,[]),c.get(a)?.push(h)}return[[...c.values()]]}`,
    replace: String.raw`case"group_by":return!Array.isArray(e)||t.length===0?[null]:[Qg(e,e.map(h=>s(h,t[0],r)))];`,
  },
  {
    why: "(min and min_by keep the first of equal values, as jq's; just-bash kept the last)",
    find: String.raw`case"min":return Array.isArray(e)&&e.length>0?[e.reduce((c,h)=>p(c,h)<0?c:h)]:[null];case"min_by":return!Array.isArray(e)||e.length===0||t.length===0?[null]:[e.reduce((c,h)=>{let a=s(c,t[0],r)[0],l=s(h,t[0],r)[0];return p(a,l)<0?c:h})];`,
    replace: String.raw`case"min":return Array.isArray(e)&&e.length>0?[e.reduce((c,h)=>p(c,h)<=0?c:h)]:[null];case"min_by":return!Array.isArray(e)||e.length===0||t.length===0?[null]:[e.reduce((c,h)=>{let a=s(c,t[0],r)[0],l=s(h,t[0],r)[0];return p(a,l)<=0?c:h})];`,
  },
  {
    why: "(an array minus an array leaves out the elements equal to one of the second, compared in that counted order; just-bash compared JSON texts, uncounted and key-order sensitive)",
    find: String.raw`if(Array.isArray(f)&&Array.isArray(i)){let c=new Set(i.map(h=>JSON.stringify(h)));return f.filter(h=>!c.has(JSON.stringify(h)))}`,
    replace: String.raw`if(Array.isArray(f)&&Array.isArray(i))return f.filter(h=>!i.some(y=>Z(h,y)===0));`,
  },
];
