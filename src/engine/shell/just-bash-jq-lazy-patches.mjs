// Exact-text corrections to just-bash 3.4.2's jq (its prebuilt bundle): generators that stop once
// the consumer has what it needs, `input`/`inputs`, and regex builtins whose searches the work
// budget counts (issue 25, adversary round 26). Kept apart from just-bash-patches.mjs (which
// spreads these in) because they form one concept: how much of a generator jq runs. The same
// rules as there: each `find` occurs exactly once in one file of just-bash's dist/bundle.

/**
 * just-bash evaluates every jq expression eagerly, to the array of all its outputs, so
 * `first(range(1e9))`, `limit(3; repeat(1))`, `isempty(repeat(1))` or `label $f | range(1e9) |
 * ., break $f` built the whole stream before taking one value, and ended at the element or the
 * work limit instead of answering. jq runs a generator only as far as its consumer asks.
 *
 * Qy evaluates an expression by pushing each output to a callback `k` as it is made; a consumer
 * that has enough throws a private token, which unwinds the producer at once. It is used only
 * where a stream can be cut short (first, limit, isempty, nth, any/all of a generator, until,
 * while, repeat, label, input/inputs; range is pushed inside them), so the ordinary eager
 * path, and its speed, is unchanged elsewhere. Pipes, commas, iteration, if, try, `as`
 * bindings, label/break, def, foreach and calls of user functions are pushed; any other
 * expression is evaluated eagerly (Qf) and its outputs pushed. Each node is one step of the
 * work budget (as in the eager `d`), each value a generator makes one more, so an endless
 * generator whose values are never enough ends at the work limit.
 * - Qy/Qz: push evaluation of one node (Qy counts the step and the depth, Qz dispatches).
 * - Qf: the eager fallback; a `break` out of it delivers the values made before it first.
 * - Qc: a call: the generators above in jq 1.6's definitions (builtin.jq), user functions,
 *   anything else eagerly. Qa collects a pushed call for the eager path.
 * - Qcl: a user function's closure argument, as jq passes it: the argument's expression with the
 *   caller's context (`Qenv`: its functions, variables and labels), run where the body uses the
 *   parameter, on the input there, and pushed like any expression, so `def f(g): first(g);
 *   f(range(1e9))` is 0 at once. just-bash ran every argument once, eagerly, on the call's input,
 *   and bound the parameter to the values. A parameter passed on as it is (`def f(g): h(g)`) is
 *   the same closure, not one more level around it.
 * - Qbn: the names just-bash treats as builtins (a user `def` of one of them is shadowed in the
 *   eager path, so it is left to it here too).
 */
const JQ_LAZY = String.raw`let Qbn;
function Qy(e,n,t,k){R(t);t.coverage?.hit("jq:node:"+n.type);if(++t.budget.callDepth>t.limits.maxDepth)throw t.budget.callDepth--,F("query depth limit exceeded ("+t.limits.maxDepth+")","recursion");let Qp=Qk;Qk=t.coverage;try{Qz(e,n,t,k)}finally{t.budget.callDepth--,Qk=Qp}}
function Qf(e,n,t,k){let r;try{r=d(e,n,t)}catch(x){if(x instanceof Q&&x.partialResults.length>0){for(let v of x.partialResults)k(v);throw new Q(x.label)}throw x}for(let v of r)k(v)}
function Qz(e,n,t,k){switch(n.type){
case"Pipe":{let s=P(n.left),u=s===null?t:{...t,currentPath:[...t.currentPath??[],...s]};return Qy(e,n.left,t,v=>Qy(v,n.right,u,k))}
case"Comma":Qy(e,n.left,t,k);return Qy(e,n.right,t,k);
case"Paren":return Qy(e,n.expr,t,k);
case"Iterate":{let it=v=>{if(Array.isArray(v))for(let x of v)R(t),k(x);else if(v!==null&&typeof v=="object"&&!(v instanceof Array))for(let x of Object.values(v))R(t),k(x);else Qf(v,{type:"Iterate"},t,k)};return n.base?Qy(e,n.base,t,it):it(e)}
case"Cond":return Qy(e,n.cond,t,c=>{if(I(c))return Qy(e,n.then,t,k);for(let o of n.elifs)if(d(e,o.cond,t).some(I))return Qy(e,o.then,t,k);n.else?Qy(e,n.else,t,k):k(e)});
case"Try":case"Optional":{let z={},b=n.type==="Try"?n.body:n.expr;try{Qy(e,b,t,v=>{try{k(v)}catch(x){throw z.x=x,x}})}catch(x){if("x"in z&&x===z.x||x instanceof g||x instanceof Q)throw x;n.type==="Try"&&n.catch&&Qy(x instanceof ie?x.value:x instanceof Error?x.message:String(x),n.catch,t,k)}return}
case"VarBind":return Qy(e,n.value,t,s=>{let o=null,p=[];n.pattern?p.push(n.pattern):n.name&&p.push({type:"var",name:n.name});if(n.alternatives)for(let u of n.alternatives)p.push(u);for(let u of p)if(o=W(t,u,s),o!==null)break;o!==null&&Qy(e,n.body,o,k)});
case"Label":try{return Qy(e,n.body,{...t,labels:new Set([...t.labels??[],n.name])},k)}catch(x){if(x instanceof Q&&x.label===n.name){for(let v of x.partialResults)k(v);return}throw x}
case"Break":throw new Q(n.name);
case"Def":{let r=new Map(t.funcs??[]);r.set(n.name+"/"+n.params.length,{params:n.params,body:n.funcBody,closure:new Map(t.funcs??[])});return Qy(e,n.body,{...t,funcs:r},k)}
case"Foreach":{let s=d(e,n.init,t)[0];return Qy(e,n.expr,t,p=>{let u;if(n.pattern){if(u=W(t,n.pattern,p),u===null)return}else u=se(t,n.varName,p);s=d(s,n.update,u)[0];n.extract?Qy(s,n.extract,u,k):k(s)})}
case"Call":return Qc(e,n.name,n.args,t,k,n)}
return Qf(e,n,t,k)}
function Qcut(e,n,c,t,k){let z={},i=c;try{Qy(e,n,t,v=>{i--;k(v);if(i<=0)throw z})}catch(x){if(x!==z)throw x}}
function Qc(e,n,a,t,k,node){let m=a.length;switch(n){
case"empty":if(m===0)return;break;
case"first":if(m===1)return Qcut(e,a[0],1,t,k);break;
case"limit":if(m===2){for(let c of d(e,a[0],t))typeof c=="number"&&c<0?Qy(e,a[1],t,k):Qcut(e,a[1],c,t,k);return}break;
case"isempty":if(m===1){let z={},r=!0;try{Qy(e,a[0],t,()=>{r=!1;throw z})}catch(x){if(x!==z)throw x}return k(r)}break;
case"nth":if(m===2){for(let c of d(e,a[0],t)){if(c<0)throw new Error("nth doesn't support negative indices");let l=null;Qcut(e,a[1],c+1,t,v=>{l=v});k(l)}return}break;
case"repeat":if(m===1)for(;;)t.coverage?.hit("jq:repeat"),R(t),Qy(e,a[0],t,k);break;
case"until":case"while":if(m===2){let w=n==="while",st=[[e,0]];for(;st.length>0;){R(t);t.coverage?.hit("jq:"+n);let[v,o]=st.pop(),x=[];if(o===1)k(v);else if(o===2)for(let u of d(v,a[1],t))x.push([u,0]);else for(let c of d(v,a[0],t))w?I(c)&&x.push([v,1],[v,2]):x.push(I(c)?[v,1]:[v,2]);for(let i=x.length-1;i>=0;i--)st.push(x[i])}return}break;
case"range":if(m>=1&&m<=3){let A1=d(e,a[0],t),B1=m>1?d(e,a[1],t):[],C1=m>2?d(e,a[2],t):[],run=(lo,hi,by)=>{if(by>0)for(let x=lo;x<hi;x+=by)R(t),t.coverage?.hit("jq:range"),k(x);else if(by<0)for(let x=lo;x>hi;x+=by)R(t),t.coverage?.hit("jq:range"),k(x)};if(m===1)for(let c of A1)run(0,c,1);else if(m===2)for(let c of A1)for(let h of B1)run(c,h,1);else for(let c of A1)for(let h of B1)for(let b of C1)run(c,h,b);return}break;
case"any":case"all":if(m===2){let z={},y=n==="any",r=!y;try{Qy(e,a[0],t,h=>Qy(h,a[1],t,c=>{if(r===y)throw z;I(c)===y&&(r=y)}))}catch(x){if(x!==z)throw x}return k(r)}break;
case"input":if(m===0){let v=t.budget.inq?.next();if(v===void 0)throw new Error("No more inputs");return k(v)}break;
case"inputs":if(m===0){for(let q=t.budget.inq,v;q&&(v=q.next())!==void 0;)R(t),t.coverage?.hit("jq:input"),k(v);return}break;
default:{let A=n+"/"+m,w=t.funcs?.get(A);if(w?.Qenv)return Qy(e,w.body,w.Qenv,k);Qbn??=new Set(Je(null,"builtins",[],t)[0].map(x=>x.split("/")[0]));if(w&&!Qbn.has(n)){let O=new Map(w.closure??t.funcs??new Map);O.set(A,w);for(let X=0;X<w.params.length;X++){let Re=a[X];Re&&O.set(w.params[X]+"/0",Qcl(Re,t))}return Qy(e,w.body,{...t,funcs:O},k)}}}
return Qf(e,node,t,k)}
function Qcl(x,t){if(x.type==="Call"&&x.args.length===0){let w=t.funcs?.get(x.name+"/0");if(w?.Qenv)return w}return{params:[],body:x,Qenv:t}}
function Qa(e,n,a,t){let o=[];try{Qc(e,n,a,t,v=>{D(t,o.length),o.push(v)},{type:"Call",name:n,args:a})}catch(x){throw x instanceof Q?x.withPrependedResults(o):x}return o}
`;

/**
 * Regex builtins on jq 1.6's definitions (builtin.jq), all through Zcq (JQ_CHAR_HELPERS), whose
 * every match and every character its search reads are steps of the work budget:
 * - Qsp: `splits($re; flags)` / `split($re; flags)`: the pieces between the matches of
 *   `match($re; "g" + flags)` (null flags are none).
 * - Qcap: `capture(re; flags)`: per match, the object of its named captures, a capture that took
 *   no part null (`"a" | capture("(?<x>a)|(?<y>b)")` is {"x":"a","y":null}).
 * - Qscan: `scan($re; $flags)`: per match of `match($re; "g" + $flags)`, the array of its
 *   captures' strings, or the matched text when it has none.
 * - Qfl: jq's flags argument as text (null is none, as `"g" + null` is "g"); Qfls: all its values.
 * - Qsp with several flags values: jq 1.6's `[match($re; "g" + flags) | (.offset, .offset +
 *   .length)]` collects the matches of each in turn, so the pieces are cut between consecutive
 *   offsets of that list, a later match before an earlier one giving "" (jq's slice).
 * - Qre: before just-bash's own cases, jq 1.6's rule for the regex builtins' input and arguments
 *   (a non-string input or flags value, or a flag jq does not know, is an error; one run per
 *   pattern and flags value; splits' flags values handed on together, as literals marked Qd, so
 *   they are evaluated once); Qtv writes a value as
 *   jq's messages do, `TYPE (JSON)`, the JSON cut to 11 characters and "..." past 14.
 */
const JQ_REGEX = String.raw`function Qfl(t,i,e,s,r){let f=t.length>i?s(e,t[i],r)[0]:null;return f===null?"":String(f)}
function Qsp(x,p,fls,r){let q=[0],o=[];for(let fl of fls)for(let[s0,e0]of Zcq(x,p,"g"+fl,r))D(r,q.length),q.push(s0,e0);q.push(x.length);for(let i=0;i+1<q.length;i+=2)o.push(q[i]<q[i+1]?x.slice(q[i],q[i+1]):"");return o}
function Qfls(t,i,e,s,r){return t.length>i?s(e,t[i],r).map(f=>f===null?"":String(f)):[""]}
const Qrx=new Set(["test","match","capture","scan","splits","split","sub","gsub"]);
function Qtv(v){let y=v===null?"null":Array.isArray(v)?"array":typeof v,j=JSON.stringify(v);return y+" ("+(j.length>14?j.slice(0,11)+"...":j)+")"}
function Qre(e,n,t,r){if(n==="split"&&t.length===1){if(typeof e!="string")throw new Error("split input and separator must be strings");return null}if(typeof e!="string")throw new Error(Qtv(e)+" cannot be matched, as it is not a string");if(n==="sub"||n==="gsub"||t.every(a=>a.Qd))return null;let L=v=>({type:"Literal",value:v,Qd:1}),R=d(e,t[0],r),o=[],sp=n==="splits"||n==="split",F=t.length>1?d(e,t[1],r):[null];for(let x of R)if(typeof x!="string"){if(Array.isArray(x)&&t.length===1)return null;throw new Error(t.length===1&&n!=="scan"&&n!=="splits"?(x===null?"null":typeof x)+" not a string or array":Qtv(x)+" is not a string")}for(let f of F){if(f!==null&&typeof f!="string")throw new Error(Qtv(f)+" is not a string");let w=sp?"g"+(f??""):f;if(w!==null&&/[^gixnpsl]/.test(w))throw new Error(w+" is not a valid modifier string")}if(sp){let Fn=F.length===0?{type:"Call",name:"empty",args:[]}:F.map(L).reduceRight((a,b)=>({type:"Comma",left:b,right:a}));Fn.Qd=1;for(let x of R)q(r,o,Je(e,n,t.length>1?[L(x),Fn]:[L(x)],r));return o}for(let f of F)for(let x of R)q(r,o,Je(e,n,t.length>1?[L(x),L(f)]:[L(x)],r));return o}

function Qcap(x,p,fl,r){return Zcq(x,p,fl,r).map(q=>{let c=Object.create(null);for(let w of q[2].captures)w.name!==null&&E(c,w.name,w.string);return c})}
function Qscan(x,p,fl,r){return Zcq(x,p,"g"+fl,r).map(q=>q[2].captures.length>0?q[2].captures.map(c=>c.string):q[2].string)}
`;

/** One correction each: the exact minified text, what replaces it, and why. */
export const JQ_LAZY_PATCHES = [
  {
    why: "jq's generators stop once their consumer has what it needs (JQ_LAZY): first(f), limit(n; f), isempty(f), nth(n; f), until, while, repeat and label/break run f only as far as they need, so first(range(1e9)), limit(3; repeat(1)) and isempty(repeat(1)) answer at once instead of ending at the element or work limit; and the regex builtins counted (JQ_REGEX)",
    find: "function nt(e,n,t){",
    replace: JQ_LAZY + JQ_REGEX + "function nt(e,n,t){",
  },
  {
    why: "(label $name | ... break $name: the body is pushed, so a break ends its generator at once: label $f | range(1e9) | ., break $f is 0)",
    find: String.raw`case"Label":try{return d(e,n.body,{...t,labels:new Set([...t.labels??[],n.name])})}catch(r){if(r instanceof Q&&r.label===n.name)return r.partialResults;throw r}`,
    replace: String.raw`case"Label":{let o=[];try{Qy(e,n,t,v=>{D(t,o.length),o.push(v)})}catch(r){throw r instanceof Q?r.withPrependedResults(o):r}return o}`,
  },
  {
    why: "(a user function's closure arguments are run where its body uses them, as generators, on the input there, as jq does (Qcl): just-bash ran each once on the call's input, to the end, so def f(g): first(g); f(range(1e9)) ended at the element limit, and def f(g): .[] | g; f(.x) read .x of the wrong value)",
    find: String.raw`if(Re){let L=d(e,Re,r),K;if(L.length===0)K={type:"Call",name:"empty",args:[]};else if(L.length===1)K={type:"Literal",value:L[0]};else{K={type:"Literal",value:L[L.length-1]};for(let fe=L.length-2;fe>=0;fe--)K={type:"Comma",left:{type:"Literal",value:L[fe]},right:K}}O.set(` + "`${Ye}/0`" + String.raw`,{params:[],body:K})}`,
    replace: String.raw`Re&&O.set(` + "`${Ye}/0`" + String.raw`,Qcl(Re,r))`,
  },
  {
    why: "(a closure parameter's call runs its argument in the caller's context)",
    find: "let A=`${n}/${t.length}`,w=r.funcs?.get(A);if(w){",
    replace: "let A=`${n}/${t.length}`,w=r.funcs?.get(A);if(w?.Qenv)return d(e,w.body,w.Qenv);if(w){",
  },
  {
    why: "(path(g) of a closure parameter is the path of its argument, in the caller's context: def f(g): [path(g)]; f(.a) is [[\"a\"]])",
    find: "function ne(e,n,t,r,s){if(R(t),",
    replace: String.raw`function ne(e,n,t,r,s){if(n.type==="Call"&&n.args.length===0){let w=t.funcs?.get(n.name+"/0");if(w?.Qenv)return ne(e,w.body,w.Qenv,r,s)}if(R(t),`,
  },
  {
    why: "(the regex builtins as jq 1.6's, whose match is one C function of the pattern and flags: a value that is not a string is an error, `null (null) cannot be matched, as it is not a string` (just-bash gave null, false or nothing); a pattern or flags argument with several values runs once per pair, the flags outer (`[match(\"a\"; \"g\", \"\")]` is the global matches then the first); splits and split/2 take the matches of every flags value together, as jq 1.6's [match($re; \"g\" + flags)] does (Qre); split/1 of a non-string is jq's `split input and separator must be strings`)",
    find: "function Je(e,n,t,r){let s=et.get(n);",
    replace: "function Je(e,n,t,r){if(t.length>0&&Qrx.has(n)){let Q2=Qre(e,n,t,r);if(Q2!==null)return Q2}let s=et.get(n);",
  },
  {
    why: "(first(f) and limit(n; f) as jq 1.6 defines them: f stops after the values they take, and an error of f before them is jq's error, not an empty result; limit of a negative count is all of f, of 0 one value, as jq 1.6's foreach gives)",
    find: String.raw`case"first":if(t.length>0)try{let f=o(e,t[0],r);return f.length>0?[f[0]]:[]}catch(f){if(f instanceof u)throw f;return[]}`,
    replace: String.raw`case"first":if(t.length>0)return Qa(e,n,t,r);`,
  },
  {
    why: "(nth(n; f) is jq 1.6's last(limit(n + 1; f)): f stops after n + 1 values, and fewer give the last of them, none null)",
    find: String.raw`let f=s(e,t[0],r);if(t.length>1){for(let c of f)if(c<0)throw new Error("nth doesn't support negative indices");let i;try{i=o(e,t[1],r)}catch(c){if(c instanceof u)throw c;i=[]}return f.flatMap(c=>{let h=c;return h<i.length?[i[h]]:[]})}`,
    replace: String.raw`if(t.length>1)return Qa(e,n,t,r);let f=s(e,t[0],r);`,
  },
  {
    why: "(limit, pushed)",
    find: String.raw`case"limit":return t.length<2?[]:s(e,t[0],r).flatMap(i=>{let c=i;if(c<0)throw new Error("limit doesn't support negative count");if(c===0)return[];let h;try{h=o(e,t[1],r)}catch(a){if(a instanceof u)throw a;h=[]}return h.slice(0,c)});case"isempty":{if(t.length<1)return[!0];try{return[o(e,t[0],r).length===0]}catch(f){if(f instanceof u)throw f;return[!0]}}`,
    replace: String.raw`case"limit":return t.length<2?[]:Qa(e,n,t,r);case"isempty":return t.length<1?[!0]:Qa(e,n,t,r);`,
  },
  {
    why: "(any(g; cond) and all(g; cond) as jq 1.6's label/foreach over `g | cond`: every output of cond counts, and the stream stops at the value after the one that decides them, so an error there is still raised: [any(5, error(\"x\"); . > 3)] is the error x in jq 1.6)",
    find: String.raw`case"any":{if(t.length>=2){try{let c=o(e,t[0],r);for(let h of c)if(s(h,t[1],r).some(u))return[!0]}catch(c){if(c instanceof i)throw c}return[!1]}`,
    replace: String.raw`case"any":{if(t.length>=2)return Qa(e,n,t,r);`,
  },
  {
    why: "(all, the same)",
    find: String.raw`case"all":{if(t.length>=2){try{let c=o(e,t[0],r);for(let h of c)if(!s(h,t[1],r).some(u))return[!1]}catch(c){if(c instanceof i)throw c}return[!0]}`,
    replace: String.raw`case"all":{if(t.length>=2)return Qa(e,n,t,r);`,
  },
  {
    why: "(until and while as jq 1.6 defines them: every output of the update is followed, in order; until took only the first, `0 | until(. >= 3; .+1, .+2)` is 3, 4, 3, 3, 4 in jq)",
    find: String.raw`case"until":{if(t.length<2)return[e];let f=e,i=r.limits.maxIterations;for(let c=0;c<i;c++){if(s(f,t[0],r).some(p))return[f];let a=s(f,t[1],r);if(a.length===0)return[f];f=a[0]}throw new u(` + "`jq until: too many iterations (${i}), increase executionLimits.maxJqIterations`" + String.raw`,"iterations")}case"while":{if(t.length<2)return[e];let f=[],i=e,c=r.limits.maxIterations;for(let h=0;h<c&&s(i,t[0],r).some(p);h++){f.push(i);let l=s(i,t[1],r);if(l.length===0)break;i=l[0]}if(f.length>=c)throw new u(` + "`jq while: too many iterations (${c}), increase executionLimits.maxJqIterations`" + String.raw`,"iterations");return f}case"repeat":{if(t.length===0)return[e];let f=[],i=e,c=r.limits.maxIterations;for(let h=0;h<c;h++){f.push(i);let a=s(i,t[0],r);if(a.length===0)break;i=a[0]}if(f.length>=c)throw new u(` + "`jq repeat: too many iterations (${c}), increase executionLimits.maxJqIterations`" + String.raw`,"iterations");return f}`,
    replace: String.raw`case"until":case"while":return t.length<2?[e]:Qa(e,n,t,r);case"repeat":return t.length===0?[e]:Qa(e,n,t,r);`,
  },
  {
    why: "(input and inputs: the next input value, and all that are left, shared with the main loop as in jq: `jq -n '[inputs]'` is every input, `jq '[., input]'` pairs them; just-bash knew neither)",
    find: String.raw`case"input_line_number":return[1];`,
    replace: String.raw`case"input_line_number":return[1];case"input":case"inputs":if(t.length===0)return Qa(e,n,t,r);`,
  },
  {
    why: "(builtins lists input and inputs, and not ascii, which jq 1.6 does not define)",
    find: String.raw`"arrays/0","ascii/0","ascii_downcase/0"`,
    replace: String.raw`"arrays/0","ascii_downcase/0"`,
  },
  {
    why: "(ascii is no jq 1.6 builtin (nor 1.7's): it is an unknown function, as in jq; just-bash gave a string's first UTF-16 unit)",
    find: String.raw`case"ascii":return typeof e=="string"&&e.length>0?[e.charCodeAt(0)]:[null];`,
    replace: "",
  },
  {
    why: "(an unknown function is named with its arity, as jq names it (`ascii/0`), so the jq command can write jq 1.6's compile error)",
    find: "throw new Error(`Unknown function: ${n}`)",
    replace: "throw new Error(`Unknown function: ${A}`)",
  },
  {
    why: "(paths(f) is jq 1.6's `paths | select(. as $p | $dot | getpath($p) | f)`: a path once per true output of f, so paths(..) repeats a path for each value below it)",
    find: String.raw`return t.length>0?c.filter(h=>{let a=e;for(let y of h)if(Array.isArray(a)&&typeof y=="number")a=a[y];else if(typeof y=="string"){let m=S(a);if(!m||!Object.hasOwn(m,y))return!1;a=m[y]}else return!1;return s(a,t[0],r).some(o)}):c}`,
    replace: String.raw`return t.length>0?c.flatMap(h=>{let a=e;for(let y of h)if(Array.isArray(a)&&typeof y=="number")a=a[y];else if(typeof y=="string"){let m=S(a);if(!m||!Object.hasOwn(m,y))return[];a=m[y]}else return[];return s(a,t[0],r).filter(o).map(()=>h)}):c}`,
  },
  {
    why: "(split($re; flags) splits at the regex's matches, as jq's [splits($re; flags)] (null flags are none); splits, scan, test and capture search through Zcq, each match and the characters each search reads counted, so a runaway search ends at the work limit; capture gives every match's object with \"g\", a capture that took no part null)",
    find: String.raw`case"split":{if(typeof e!="string"||t.length===0)return[null];let o=s(e,t[0],r),p=String(o[0]);`,
    replace: String.raw`case"split":{if(typeof e!="string"||t.length===0)return[null];let o=s(e,t[0],r),p=String(o[0]);if(t.length>1)try{return[Qsp(e,p,Qfls(t,1,e,s,r),r)]}catch(u){if(u instanceof g)throw u;return[null]}`,
  },
  {
    why: "(splits through Zcq)",
    find: String.raw`try{let u=t.length>1?String(s(e,t[1],r)[0]):"g",f=j(p,u.includes("g")?u:` + "`${u}g`" + String.raw`),i=1;for(let h of f.matchAll(e))i+=Math.max(1,h.length),U(r,i);let c=f.split(e);return U(r,c.length),c}catch(u){if(u instanceof g)throw u;return[]}}`,
    replace: String.raw`try{return Qsp(e,p,Qfls(t,1,e,s,r),r)}catch(u){if(u instanceof g)throw u;return[]}}`,
  },
  {
    why: "(scan through Zcq)",
    find: String.raw`try{let u=t.length>1?String(s(e,t[1],r)[0]):"",f=j(p,u.includes("g")?u:` + "`${u}g`" + String.raw`),i=[];for(let c of f.matchAll(e))U(r,i.length+1),c.length>1?(U(r,c.length-1),i.push(c.slice(1))):i.push(c[0]);return i}catch(u){if(u instanceof g)throw u;return[]}}`,
    replace: String.raw`try{return Qscan(e,p,Qfl(t,1,e,s,r),r)}catch(u){if(u instanceof g)throw u;return[]}}`,
  },
  {
    why: "(test through Zcq, one search)",
    find: String.raw`try{let u=t.length>1?String(s(e,t[1],r)[0]):"";return[j(p,u).test(e)]}catch{return[!1]}}`,
    replace: String.raw`try{return[Zcq(e,p,Qfl(t,1,e,s,r).replace(/g/g,""),r).length>0]}catch(u){if(u instanceof g)throw u;return[!1]}}`,
  },
  {
    why: "(capture through Zcq)",
    find: String.raw`try{let u=t.length>1?String(s(e,t[1],r)[0]):"",i=j(p,u).match(e);return!i||!i.groups?[Object.create(null)]:[i.groups]}catch{return[null]}}`,
    replace: String.raw`try{return Qcap(e,p,Qfl(t,1,e,s,r),r)}catch(u){if(u instanceof g)throw u;return[null]}}`,
  },
];

/**
 * The jq command's inputs as one queue (`budget.inq`) that the main loop and `input`/`inputs`
 * share, as jq reads them: without -n each value the main loop takes is one the filter's `input`
 * no longer sees; with -n the filter alone reads them (jq -n reads its input only when asked, so
 * the inputs are parsed on the first `input`). The values per mode are those just-bash's loop
 * ran the filter on: each JSON value, each raw line (-R), the array of all (-s), the whole text
 * (-R -s).
 */
export const JQ_INPUT_PATCHES = [
  {
    why: "jq's input and inputs read the same queue as the main loop (JQ_INPUT_PATCHES): `jq -n '[inputs]'` is every input and `jq '[., input]'` pairs them; with -n the inputs are read too (just-bash read none), parsed when the filter first asks",
    find: String.raw`let D=[];if(!u)if(N.length===0`,
    replace: String.raw`let D=[];if(N.length===0`,
  },
  {
    why: "(the queue, and the main loop taking its values from it)",
    find: String.raw`if(u)e=C(null,r,n);else if(s&&p){let o=D.map(({content:f})=>f).join("");e=C(o,r,n)}else if(s){let o="";for(let{content:f}of D){let c=o+f,w=0,O=c.indexOf(` + "`\n`" + String.raw`,w);for(;O!==-1;)l(e,C(c.slice(w,O),r,n)),w=O+1,O=c.indexOf(` + "`\n`" + String.raw`,w);o=c.slice(w)}o!==""&&l(e,C(o,r,n))}else if(p){let o=[];for(let{content:f}of D){let c=f.trim();c&&l(o,J(c,v))}e=C(o,r,n)}else for(let{content:o}of D){let f=o.trim();if(!f)continue;let c=J(f,v);for(let w of c)l(e,C(w,r,n))}`,
    replace: String.raw`let Qall=()=>{let a=[];a.Qb=[];if(s&&p)a.push(D.map(({content:f})=>f).join(""));else if(s){let o="";for(let{content:f}of D){let c=o+f,w=0,O=c.indexOf(` + "`\n`" + String.raw`,w);for(;O!==-1;)a.push(c.slice(w,O)),w=O+1,O=c.indexOf(` + "`\n`" + String.raw`,w);o=c.slice(w)}o!==""&&a.push(o)}else if(p){let o=[];for(let{content:f}of D){let c=f.trim();c&&l(o,J(c,v))}a.push(o)}else for(let{content:o}of D){a.Qb.push([a.length,o]);let f=o.trim();f&&l(a,J(f,v))}return a};let Qsrc=c=>c==="stdin"?"<stdin>":c,Qnl=(c,q)=>{let m=0;for(let i=c.indexOf(` + "`\n`" + String.raw`);i!==-1&&i<q;i=c.indexOf(` + "`\n`" + String.raw`,i+1))m++;return m+(c.indexOf(` + "`\n`" + String.raw`,q)!==-1?1:0)},Qends=c=>{let o=[],h=0,i=0,x=c.length;for(;i<x;){let ch=c[i];if(ch==='"'){for(i++;i<x&&c[i]!=='"';)i+=c[i]==="\\"?2:1;h===0&&o.push(i),i++}else if(ch==="["||ch==="{")h++,i++;else if(ch==="]"||ch==="}")h--,h===0&&o.push(i),i++;else if(/[\s,:]/.test(ch))i++;else{for(;i<x&&!/[\s\[\]{},:"]/.test(c[i]);)i++;h===0&&o.push(i-1)}}return o};n.budget.inq={a:null,i:0,next(){this.a??=Qall();return this.i<this.a.length?this.a[this.i++]:void 0},loc(){let b=this.a.Qb,k=this.i-1,j=b.length-1,z=D[D.length-1];if(p||j<0&&!s)return Qsrc(z.source)+":"+Qnl(z.content,z.content.length);if(s)return Qsrc(z.source)+":"+(k+1);for(;j>0&&b[j][0]>k;)j--;let c=D[j];return Qsrc(c.source)+":"+Qnl(c.content,Qends(b[j][1])[k-b[j][0]]??b[j][1].length)}};let Qst=0,Qrun=(w,loc)=>{try{l(e,C(w,r,n)),Qst=0}catch(x){if(x instanceof H||x instanceof j||!(x instanceof Error)||x.message.includes("Unknown function"))throw x;if("value"in x&&x.value===null)return;Qst=5,n.budget.debug.push("jq: error (at "+loc()+")"+("value"in x&&typeof x.value!="string"?" (not a string): ":": ")+B(x.message))}};if(u)Qrun(null,()=>"<unknown>");else for(let w;(w=n.budget.inq.next())!==void 0;)Qrun(w,()=>n.budget.inq.loc());`,
  },
  {
    why: "(a run-time error is jq 1.6's `jq: error (at <stdin>:N): message` (`(at <unknown>)` with -n, the FILE's name for a file, N its lines read so far, ` (not a string): JSON` for a non-string error value), and the next input still runs, the status being the last input's, as jq 1.6's; the lines go with debug's, in the order they were made: just-bash wrote `jq: parse error: message` and stopped at the first)",
    find: "let Q=I.join(y),te=x&&(e.length===0||e.every(o=>o==null||o===!1))?1:0;",
    replace: "let Q=I.join(y),te=Qst||(x&&(e.length===0||e.every(o=>o==null||o===!1))?1:0);",
  },
];

/**
 * The work re2js's engines do, in `Qrn.n`, and a limit that ends a search inside the engine
 * (issue 25, adversary round 28 F2). A character read is one unit (as before); the NFA adds, at
 * each position, an eighth of a unit per thread it steps or adds (and per four captures an added
 * thread copies), and the DFA a unit per NFA state of each state it builds: so a search whose
 * cost per character grows with the pattern (`(a?){1000}a{1000}z` keeps ~2,000 threads alive)
 * is charged by that cost, while a plain search (a few threads) stays at one unit a character.
 * Eight threads are about one character read of a simple pattern (CPU time, one process).
 * - Qrt(u): u eighths of a unit of engine work; past `Qrn.lim`, `Qrn.on()` (which throws).
 * - Qra(c, k, q, l): arms the limit for the search about to run, counted from q: `l` steps are
 *   left of the budget and a unit costs k steps, so the search stops inside the engine, by a
 *   throw of c(steps) (the budget's charge), as soon as what it did is more than what is left; a
 *   long search of a huge pattern over a long line (one `find`) cannot run on past the budget,
 *   in a shell worker or in `svc-mcp fs`'s own thread. Returns q. No number l: no limit.
 * - Qrd(): disarms (every armed search is followed by it: a limit left armed would charge a later
 *   search of another command to this one). Qrf(m, p): `m.find(p)`, disarmed after.
 * The engine that throws is not reused: re2js takes a machine from its pool and puts it back
 * only after a search ends, and the DFA builds a state only after the count.
 */
const RE2_WORK = String.raw`var Qrn={n:0,lim:1/0,on:null};function Qrt(u){if((Qrn.n+=u>>3)>Qrn.lim)Qrn.on()}
function Qra(c,k,q,l){Qrn.on=null;Qrn.lim=1/0;if(typeof l=="number"){Qrn.lim=q+Math.floor(Math.max(0,l)/k);Qrn.on=()=>{Qrn.lim=1/0;Qrn.on=null;c(k*(Qrn.n-q))}}return q}
function Qrd(){Qrn.lim=1/0;Qrn.on=null}
function Qrf(m,p){try{return m.find(p)}finally{Qrd()}}
`;

/**
 * re2js's UTF-16 input counts the characters its matchers read (`Qrn.n`): a search may read far
 * past the match it returns (`a[^z]*z|a` reads to the end of the text for each `a`), so jq's
 * global matches over a long string did quadratic work that one step per match did not see
 * (20,000 a's ran past 10 minutes). Zcq charges what each search read.
 */
export const RE2_SCAN_PATCHES = [
  {
    why: "re2js counts the characters its matchers read (Qrn), so jq's regex builtins can charge the work budget for each search's reading, not only for each match (RE2_SCAN_PATCHES)",
    find: "step(t){if(t+=this.start,t<this.end){let e=this.charSequence.codePointAt(t);",
    replace: "step(t){if(++Qrn.n>Qrn.lim&&Qrn.on(),t+=this.start,t<this.end){let e=this.charSequence.codePointAt(t);",
  },
  {
    why: "(the count, exported to the jq chunk, with the engine's work and its limit: RE2_WORK)",
    find: "export{P1 as a,a1 as b};",
    replace: RE2_WORK + "export{P1 as a,a1 as b,Qrn,Qra,Qrd,Qrf};",
  },
  {
    why: "(the jq chunk imports the count)",
    find: 'import{a as j}from"./chunk-KVG5FR5F.js";',
    replace: 'import{a as j,Qrn,Qra,Qrf}from"./chunk-KVG5FR5F.js";',
  },
  {
    why: "(the NFA counts the threads it steps and adds at each position, with the captures each added thread copies: a pattern such as (a?){1000}a{1000}z keeps ~2,000 threads alive at each character)",
    find: "step(t,e,s,n,r,a,o,h){let p=this.re2.longest;",
    replace: "step(t,e,s,n,r,a,o,h){let p=this.re2.longest,Qs=t.size;",
  },
  {
    why: "(the NFA's count, charged once per position)",
    find: "O&&(A=this.add(e,S.out,n,A.cap,a,A)),A!==null&&(this.freeThread(A),t.denseThreads[f]=null)}t.clear()}",
    replace: "O&&(A=this.add(e,S.out,n,A.cap,a,A)),A!==null&&(this.freeThread(A),t.denseThreads[f]=null)}Qrt(Qs+e.size*(1+(this.ncap>>2)));t.clear()}",
  },
  {
    why: "(the DFA counts each state it builds, by the NFA states it steps: a pattern whose states do not fit its cache builds one at each character)",
    find: "let r=this.getState(n);",
    replace: "Qrt(8*(t.nfaStates.length+n.length));let r=this.getState(n);",
  },
];
