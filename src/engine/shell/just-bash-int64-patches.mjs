// Exact-text corrections to just-bash 3.4.2's shell arithmetic (its prebuilt bundle): bash does
// integer arithmetic in signed 64 bits (intmax_t) where just-bash used JS doubles, so 2**53+1,
// 123456789*987654321, 1<<63 and 0xffffffffffffffff came out wrong, and [ -eq ] could call two
// different numbers equal (issue 25, adversary round 23's F3). Kept apart from
// just-bash-patches.mjs (which spreads these in) because they form one concept: the value type.
// The same rules as there: each `find` occurs exactly once in just-bash's dist/bundle.

/**
 * INT64: a value is a JS number while it is a safe integer and a BigInt (wrapped to signed 64
 * bits, as bash's intmax_t wraps) outside that range, never both for one value, so ===, <, >
 * and ===0 stay right across the two kinds and the common small case costs nothing extra.
 * - I64n: that form for any number or BigInt (wrapping into 64 bits).
 * - I64b: digits in base 2..64 with bash's digit set (a-z, A-Z, @, _; letters of either case
 *   for a base up to 36), wrapping as bash's accumulation does; NaN for a digit not in the base.
 * - I64d / I64v: a decimal text with optional sign (as parseInt reads its start); NaN / 0 if none.
 * - Yp, Jc, Jp: just-bash's binary, assignment and unary operators redone on that form: + - *
 *   wrap, / truncates toward zero and % takes the dividend's sign (-2**63 / -1 wraps to itself),
 *   ** multiplies by squaring with wrapping (bash's ipow), << and >> take the count modulo 64 as
 *   x86-64 does under bash (1<<64 is 1, 1<<-1 is -2**63), & | ^ ~ in two's complement, and /= and
 *   %= by zero are bash's error (just-bash returned 0).
 */
const INT64 = String.raw`function I64n(v){if(typeof v=="number"){if(Number.isSafeInteger(v))return v+0;v=BigInt(Number.isFinite(v)?Math.trunc(v):0)}v=BigInt.asIntN(64,v);return v>=-9007199254740991n&&v<=9007199254740991n?Number(v):v}function I64b(s,b){if(s==="")return NaN;let n=0,g=!1,B=BigInt(b);for(let c of s){let d=c>="0"&&c<="9"?c.charCodeAt(0)-48:c>="a"&&c<="z"?c.charCodeAt(0)-87:c>="A"&&c<="Z"?c.charCodeAt(0)-(b<=36?55:29):c==="@"?62:c==="_"?63:99;if(d>=b)return NaN;!g&&n>=70368744177664&&(n=BigInt(n),g=!0);n=g?BigInt.asIntN(64,n*B+BigInt(d)):n*b+d}return I64n(n)}function I64d(s){let m=/^\s*([-+]?)(\d+)/.exec(s);if(m===null)return NaN;let v=I64b(m[2],10);return m[1]==="-"?Jp(v,"-"):v}function I64c(v){return typeof v=="bigint"?v<0n?-9007199254740991:9007199254740991:v}function I64v(s){let v=I64d(s);return v!==v?0:v}function I64B(x){return typeof x=="bigint"?x:BigInt(Number.isFinite(x)?Math.trunc(x):0)}function Yp(e,t,n){switch(n){case"<":return e<t?1:0;case"<=":return e<=t?1:0;case">":return e>t?1:0;case">=":return e>=t?1:0;case"==":return e===t?1:0;case"!=":return e!==t?1:0;case",":return t}if((n==="/"||n==="%")&&t===0)throw new ce("division by 0");if(n==="**"&&t<0)throw new ce("exponent less than 0");if(typeof e=="number"&&typeof t=="number"){let r;switch(n){case"+":r=e+t;break;case"-":r=e-t;break;case"*":r=e*t;break;case"/":r=(e-e%t)/t;break;case"%":r=e%t;break;case"&":case"|":case"^":(e|0)===e&&(t|0)===t&&(r=n==="&"?e&t:n==="|"?e|t:e^t);break;case">>":(e|0)===e&&t>=0&&t<32&&(r=e>>t)}if(r!==void 0&&Number.isSafeInteger(r))return r+0}let a=I64B(e),b=I64B(t),c=BigInt.asIntN;switch(n){case"+":return I64n(a+b);case"-":return I64n(a-b);case"*":return I64n(a*b);case"/":return I64n(a/b);case"%":return I64n(a%b);case"&":return I64n(a&b);case"|":return I64n(a|b);case"^":return I64n(a^b);case"<<":return I64n(c(64,a)<<(b&63n));case">>":return I64n(c(64,a)>>(b&63n));case"**":{let r=1n;for(a=c(64,a);b>0n;b>>=1n)b&1n&&(r=c(64,r*a)),a=c(64,a*a);return I64n(r)}}return 0}function Jc(e,t,n){return n==="="?t:Yp(e,t,n.slice(0,-1))}function Jp(e,t){switch(t){case"-":return I64n(-e);case"+":return e;case"!":return e===0?1:0;case"~":return I64n(typeof e=="number"?-e-1:~e);default:return e}}function Qtk(t,m){let k;if(t.Qp!==void 0)k=t.Qs.slice(t.Qp).replace(/^\s+/,"");else{let x=t.Qs,p=t.Qq;for(;p<x.length&&/\s/.test(x[p]);)p++;k=p<x.length?x.slice(p):(/(?:\w+|[^\w\s])\s*$/.exec(x)??[""])[0]}throw new ce(m+' (error token is "'+k+'")')}function Qmx(l){let m=-1;for(let x of l){let a=Array.isArray(x)?x[0]:x;(typeof a=="number"||typeof a=="bigint")&&a>m&&(m=a)}return m}function Qsx(e,x){throw Object.assign(new G(1,"","bash: line "+e.state.currentLine+": "+(x?.Qsrc??"")+": substring expression < 0\n"),{Qar:!0})}function Qbad(t){let k=t.Qt??"",m="value too great for base",h=k.indexOf("#");if(h>=0){let b=+k.slice(0,h);m=b===0?"invalid number":b<2||b>64?"invalid arithmetic base":h===k.length-1?"invalid integer constant":m}return Object.assign(new ce(t.Qt===void 0?m:m+' (error token is "'+k+'")'),{Qe:t.Qe})}`;

/** One correction each: the exact minified text, what replaces it, and why. */
export const INT64_PATCHES = [
  {
    why: "bash's arithmetic operators work on signed 64-bit integers (INT64): $((123456789*987654321)) is 121932631112635269, $((1<<63)) -9223372036854775808; just-bash's doubles rounded past 2**53 and its shifts and bit operators cut to 32 bits",
    find: String.raw`function Yp(e,t,n){switch(n){case"+":return e+t;case"-":return e-t;case"*":return e*t;case"/":if(t===0)throw new ce("division by 0");return Math.trunc(e/t);case"%":if(t===0)throw new ce("division by 0");return e%t;case"**":if(t<0)throw new ce("exponent less than 0");return e**t;case"<<":return e<<t;case">>":return e>>t;case"<":return e<t?1:0;case"<=":return e<=t?1:0;case">":return e>t?1:0;case">=":return e>=t?1:0;case"==":return e===t?1:0;case"!=":return e!==t?1:0;case"&":return e&t;case"|":return e|t;case"^":return e^t;case",":return t;default:return 0}}function Jc(e,t,n){switch(n){case"=":return t;case"+=":return e+t;case"-=":return e-t;case"*=":return e*t;case"/=":return t!==0?Math.trunc(e/t):0;case"%=":return t!==0?e%t:0;case"<<=":return e<<t;case">>=":return e>>t;case"&=":return e&t;case"|=":return e|t;case"^=":return e^t;default:return t}}function Jp(e,t){switch(t){case"-":return-e;case"+":return+e;case"!":return e===0?1:0;case"~":return~e;default:return e}}`,
    replace: INT64,
  },
  {
    why: "(a literal in any base is read in 64 bits with bash's wrap-around: 9223372036854775807 and 0xffffffffffffffff (-1); just-bash stopped at 2**53-1)",
    find: String.raw`function or(e){if(e.includes("#")){let n=e.split("#");if(n.length!==2)return Number.NaN;let[r,s]=n;if(!/^\d+$/.test(r)||s.length===0)return Number.NaN;let i=Number.parseInt(r,10);if(i<2||i>64)return Number.NaN;let o=0;for(let a of s){let l;if(/[0-9]/.test(a))l=a.charCodeAt(0)-48;else if(/[a-z]/.test(a))l=a.charCodeAt(0)-97+10;else if(/[A-Z]/.test(a))l=a.charCodeAt(0)-65+(i<=36?10:36);else if(a==="@")l=62;else if(a==="_")l=63;else return Number.NaN;if(l>=i)return Number.NaN;if(o=o*i+l,o>Number.MAX_SAFE_INTEGER)return Number.MAX_SAFE_INTEGER}return o}if(e.startsWith("0x")||e.startsWith("0X")){let n=Number.parseInt(e.slice(2),16);return n>Number.MAX_SAFE_INTEGER?Number.MAX_SAFE_INTEGER:n}if(e.startsWith("0")&&e.length>1&&/^[0-9]+$/.test(e)){if(/[89]/.test(e))return Number.NaN;let n=Number.parseInt(e,8);return n>Number.MAX_SAFE_INTEGER?Number.MAX_SAFE_INTEGER:n}let t=Number.parseInt(e,10);return t>Number.MAX_SAFE_INTEGER?Number.MAX_SAFE_INTEGER:t}`,
    replace: String.raw`function or(e){let b=10,s=e;if(e.includes("#")){let n=e.split("#");if(n.length!==2)return Number.NaN;let[r,d]=n;if(!/^\d+$/.test(r)||d.length===0)return Number.NaN;b=Number.parseInt(r,10);if(b<2||b>64)return Number.NaN;s=d}else/^0[xX]/.test(e)?(b=16,s=e.slice(2)):e.length>1&&e[0]==="0"&&(b=8,s=e.slice(1));return I64b(s,b)}`,
  },
  {
    why: "(a variable's decimal value in 64 bits: x=9007199254740993; $((x)))",
    find: String.raw`let s=Number.parseInt(r,10);if(!Number.isNaN(s)&&/^-?\d+$/.test(r.trim()))return s;`,
    replace: String.raw`if(/^-?\d+$/.test(r.trim()))return I64d(r);`,
  },
  {
    why: "(the same for an array element's value)",
    find: String.raw`let r=Number.parseInt(t,10);if(!Number.isNaN(r)&&/^-?\d+$/.test(t.trim()))return r;`,
    replace: String.raw`if(/^-?\d+$/.test(t.trim()))return I64d(t);`,
  },
  {
    why: "(the same for a special parameter: $1, $#)",
    find: String.raw`let a=Number.parseInt(o,10);if(!Number.isNaN(a)&&/^-?\d+$/.test(o))return a;`,
    replace: String.raw`if(/^-?\d+$/.test(o))return I64d(o);`,
  },
  {
    why: "(++ and -- wrap in 64 bits: x=9223372036854775807; ((x++)) is -9223372036854775808)",
    find: String.raw`a=Number.parseInt(await ie(e,o),10)||0,l=t.operator==="++"?a+1:a-1;`,
    replace: String.raw`a=I64v(await ie(e,o)),l=Yp(a,1,t.operator[0]);`,
  },
  {
    why: "(the same on an array element)",
    find: String.raw`let c=Number.parseInt(le(e,o,l)||"0",10)||0,u=t.operator==="++"?c+1:c-1;`,
    replace: String.raw`let c=I64v(le(e,o,l)||"0"),u=Yp(c,1,t.operator[0]);`,
  },
  {
    why: "(the same on a variable whose name is built)",
    find: String.raw`let a=Number.parseInt(e.state.env.get(o)||"0",10)||0,l=t.operator==="++"?a+1:a-1;`,
    replace: String.raw`let a=I64v(e.state.env.get(o)||"0"),l=Yp(a,1,t.operator[0]);`,
  },
  {
    why: "(the same on an element whose array name is built)",
    find: String.raw`l=Number.parseInt(le(e,o,a)||"0",10)||0,c=t.operator==="++"?l+1:l-1;`,
    replace: String.raw`l=I64v(le(e,o,a)||"0"),c=Yp(l,1,t.operator[0]);`,
  },
  {
    why: "(x op= y reads x in 64 bits)",
    find: String.raw`c=Number.parseInt(l||"0",10)||0,u=await s(t.value),f=Jc(c,u,t.operator);`,
    replace: String.raw`c=I64v(l||"0"),u=await s(t.value);u===0&&t.Qs!==void 0&&(t.operator==="/="||t.operator==="%=")&&Qtk(t,"division by 0");let f=Jc(c,u,t.operator);`,
  },
  {
    why: "(the same for a variable whose name is built)",
    find: String.raw`let a=Number.parseInt(e.state.env.get(o)||"0",10)||0,l=await s(t.value),c=Jc(a,l,t.operator);`,
    replace: String.raw`let a=I64v(e.state.env.get(o)||"0"),l=await s(t.value),c=Jc(a,l,t.operator);`,
  },
  {
    why: "(a command substitution's number in 64 bits: $(( $(echo 9007199254740993) )))",
    find: String.raw`let o=i.stdout.trim();return Number.parseInt(o,10)||0}`,
    replace: String.raw`let o=i.stdout.trim();return I64v(o)}`,
  },
  {
    why: "(a ${x} inside the expression in 64 bits)",
    find: String.raw`let i=await us(e,t.content);return Number.parseInt(i,10)||0}`,
    replace: String.raw`let i=await us(e,t.content);return I64v(i)}`,
  },
  {
    why: "(a number made of pieces: 1$x)",
    find: String.raw`Number.parseInt(i,10)||0}case"ArithDynamicAssignment"`,
    replace: String.raw`I64v(i)}case"ArithDynamicAssignment"`,
  },
  {
    why: "test and [ compare integers in 64 bits and refuse one outside them as bash does ([ 9223372036854775807 -eq 9223372036854775806 ] is false; just-bash's doubles called them equal, which could change a script's path: docs/security.md)",
    find: String.raw`let n=Number.parseInt(e,10);return Number.isNaN(n)?{value:0,valid:!1}:{value:t?-n:n,valid:!0}}`,
    replace: String.raw`let q=BigInt((t?"-":"")+e);return q!==BigInt.asIntN(64,q)?{value:0,valid:!1}:{value:I64n(q),valid:!0}}`,
  },
  {
    why: "([[ a -eq b ]]'s plain numbers in 64 bits too)",
    find: String.raw`/^0[xX][0-9a-fA-F]+$/.test(e)?n=Number.parseInt(e,16):/^0[0-7]+$/.test(e)?n=Number.parseInt(e,8):n=Number.parseInt(e,10);return Number.isNaN(n)&&(n=0),t?-n:n}`,
    replace: String.raw`/^0[xX][0-9a-fA-F]+$/.test(e)?n=I64b(e.slice(2),16):/^0[0-7]+$/.test(e)?n=I64b(e.slice(1),8):n=I64b(e,10);return n!==n&&(n=0),t?Jp(n,"-"):n}`,
  },
  {
    why: "(and base#digits there)",
    find: String.raw`s>=2&&s<=64?n=uh(r[2],s):n=0`,
    replace: String.raw`s>=2&&s<=64?n=I64b(r[2],s):n=0`,
  },
  {
    why: "expr's integers are exact at any size, as GNU expr's (GMP): expr 9007199254740993 + 0 is 9007199254740993 and 9223372036854775807 + 1 is 9223372036854775808; just-bash's doubles rounded past 2**53",
    find: String.raw`let s=N(),o=parseInt(e,10),n=parseInt(s,10);if(Number.isNaN(o)||Number.isNaN(n))throw new Error("non-integer argument");e=String(r==="+"?o+n:o-n)`,
    replace: String.raw`let s=N(),o=/^\s*[-+]?\d+/.exec(e),n=/^\s*[-+]?\d+/.exec(s);if(o===null||n===null)throw new Error("non-integer argument");o=BigInt(o[0].trim()),n=BigInt(n[0].trim()),e=String(r==="+"?o+n:o-n)`,
  },
  {
    why: "(expr's * / %: / truncates toward zero and % takes the dividend's sign, as BigInt's do)",
    find: String.raw`let s=d(),o=parseInt(e,10),n=parseInt(s,10);if(Number.isNaN(o)||Number.isNaN(n))throw new Error("non-integer argument");if((r==="/"||r==="%")&&n===0)throw new Error("division by zero");r==="*"?e=String(o*n):r==="/"?e=String(Math.trunc(o/n)):e=String(o%n)`,
    replace: String.raw`let s=d(),o=/^\s*[-+]?\d+/.exec(e),n=/^\s*[-+]?\d+/.exec(s);if(o===null||n===null)throw new Error("non-integer argument");o=BigInt(o[0].trim()),n=BigInt(n[0].trim());if((r==="/"||r==="%")&&n===0n)throw new Error("division by zero");r==="*"?e=String(o*n):r==="/"?e=String(o/n):e=String(o%n)`,
  },
  {
    why: "(expr's comparisons of two integers are exact too: 9007199254740993 = 9007199254740992 is 0)",
    find: String.raw`let s=p(),o=parseInt(e,10),n=parseInt(s,10),l=!Number.isNaN(o)&&!Number.isNaN(n),c;`,
    replace: String.raw`let s=p(),o=/^\s*[-+]?\d+/.exec(e),n=/^\s*[-+]?\d+/.exec(s),l=o!==null&&n!==null,c;l&&(o=BigInt(o[0].trim()),n=BigInt(n[0].trim()));`,
  },
  {
    why: "seq with integer arguments counts exactly at any size, as GNU seq: seq 9007199254740993 9007199254740994 prints both; just-bash's double stuck at 2**53 and ran into its iteration limit",
    find: String.raw`if(a>0)for(let t=d;t<=l+1e-10;t+=a)M(`,
    replace: String.raw`if(i.every(o=>/^[-+]?\d+$/.test(o))){let D0=BigInt(i.length===1?1:i[0]),S0=BigInt(i.length===3?i[1]:1),L0=BigInt(i[i.length-1]);if(S0>0n)for(let t=D0;t<=L0;t+=S0)M(String(t));else for(let t=D0;t>=L0;t+=S0)M(String(t))}else if(a>0)for(let t=d;t<=l+1e-10;t+=a)M(`,
  },
  {
    why: "seq counts as far as its output may go (16 MB, the shell's internal output limit), each number a step of the call's work budget, as our seq -f: just-bash stopped at min(maxLoopIterations, maxArrayElements) numbers, a count, so seq 100000 | wc -l failed with `seq: iteration limit exceeded (10000)` (issue 25, adversary F3)",
    find: String.raw`w=Math.min(p.limits.maxLoopIterations,p.limits.maxArrayElements),c=Math.min(p.limits.maxOutputSize,p.limits.maxStringLength),z=y(m),b=0,v=0,M=t=>{if(v>=w)throw new g(` + "`seq: iteration limit exceeded (${w})`" + String.raw`,"iterations");`,
    replace: String.raw`c=Math.min(p.limits.maxOutputSize,p.limits.maxStringLength),z=y(m),b=0,v=0,M=t=>{p.coverage?.hit("seq:step");`,
  },
  {
    why: "an arithmetic error in $(( )) ends the shell with status 1 and bash's line (echo $((1/0)); echo after prints `bash: line 1: 1/0: division by 0` and no after; a subshell or $(...) ends only itself), as bash -c does; just-bash went on with the next statement. (( )), let, for (( )) and [[ ]] still only fail their own command, as in bash",
    find: String.raw`case"ArithmeticExpansion":{let s=t.expression.originalText;if(s&&/\$[a-zA-Z_][a-zA-Z0-9_]*(?![{[(])/.test(s)){let o=await Bl(e,s),a=new Q,l=re(a,o);return String(await Y(e,l.expression,!0))}return String(await Y(e,t.expression.expression,!0))}`,
    replace: String.raw`case"ArithmeticExpansion":{let s=t.expression.originalText,w=s;try{if(s&&/\$[a-zA-Z_][a-zA-Z0-9_]*(?![{[(])/.test(s)){let o=await Bl(e,s);w=o;let a=new Q,l=re(a,o);return String(await Y(e,l.expression,!0))}return String(await Y(e,t.expression.expression,!0))}catch(q){if(q instanceof ce)throw Object.assign(new G(1,"","bash: line "+e.state.currentLine+": "+(typeof (q.Qe??w)=="string"?(q.Qe??w).replace(/^\s+/,"")+": ":"")+q.message+"\n"),{Qar:!0});throw q}}`,
  },
  {
    why: "(eval of such an expansion fails with status 1 and the script goes on, as bash's eval: eval 'echo $((1/0))'; echo after $? prints after 1; the output before the error stays)",
    find: String.raw`if(l instanceof He||l instanceof Qe||l instanceof Te||l instanceof G)throw l;if(l.name==="ParseException")return D(` + "`bash: eval:",
    replace: String.raw`if(l instanceof G&&l.Qar)return L(l.stdout,l.stderr,1);if(l instanceof He||l instanceof Qe||l instanceof Te||l instanceof G)throw l;if(l.name==="ParseException")return D(` + "`bash: eval:",
  },
  {
    why: "test and [ say why an operand of -eq -ne -lt -le -gt -ge is refused, as bash does (bash: line 1: [: abc: integer expression expected, status 2; an empty operand too: test 1 -eq '' is that error, where just-bash read it as 0 and said nothing)",
    find: String.raw`return!o.valid||!a.valid?L("","",2):be(ys(s,o.value,a.value))`,
    replace: String.raw`return!o.valid||!a.valid?D("bash: line "+e.state.currentLine+": "+(e.Qtn??"test")+": "+(o.valid?i:r)+": integer expression expected\n",2):be(ys(s,o.value,a.value))`,
  },
  {
    why: "(which of the two names the message gives)",
    find: String.raw`f=n.slice(0,-1)}return mr(c,f)}return null}`,
    replace: String.raw`f=n.slice(0,-1)}return c.Qtn=t,mr(c,f)}return null}`,
  },
  {
    why: "(an empty operand is no integer)",
    find: String.raw`if(e=e.trim(),e==="")return{value:0,valid:!0};let t=!1;`,
    replace: String.raw`if(e=e.trim(),e==="")return{value:0,valid:!1};let t=!1;`,
  },
  {
    why: "`<<` and `<<-` inside (( )), for (( )) and let are shifts, not here-documents, as bash's: if (( 5 & (1<<0) )); ((x<<=40)); let 'x=1<<2' (just-bash's lexer waited for a here-document's delimiter and the whole script failed to parse, status 2, nothing run)",
    find: String.raw`this.pendingHeredocDelimiterMode=!0,this.makeToken(E.DLESSDASH,"<<-",n,r,s)`,
    replace: String.raw`this.pendingHeredocDelimiterMode=this.dparenDepth>0?void 0:!0,this.makeToken(E.DLESSDASH,"<<-",n,r,s)`,
  },
  {
    why: "(the same for <<)",
    find: String.raw`this.pendingHeredocDelimiterMode=!1,this.makeToken(E.DLESS,"<<",n,r,s)`,
    replace: String.raw`this.pendingHeredocDelimiterMode=this.dparenDepth>0?void 0:!1,this.makeToken(E.DLESS,"<<",n,r,s)`,
  },
  {
    why: "(a word after `<`, `>`, `<<` or `>>` that begins with `=` closes that operator when (( )) is put back together: ((x<<=40)), ((3<=5)), ((x>=2)); just-bash put a space in between, which made `<< =40` and `< =5` a syntax error)",
    find: String.raw`!(c==="="&&/[|&^+\-*/%<>]$/.test(n))`,
    replace: String.raw`!(c[0]==="="&&/[|&^+\-*/%<>]$/.test(n))`,
  },
  {
    why: "an arithmetic error in a substring's offset or length ends the shell with status 1 as bash's (x=abc; echo ${x:1/0} says `bash: line 1: x: 1/0: division by 0 (error token is \"0\")`; just-bash said `bash: division by 0` and went on). And a substring's offset and length past 2**53 are clamped to +-(2**53-1), keeping the sign, where they become string and array positions (${s:1:$((2**62))} is bc, ${x:$((2**62))} empty, as bash's; just-bash's position arithmetic threw `Cannot mix BigInt and other types` and the shell ended with status 1). A clamped position past either end gives what the real one gives",
    find: String.raw`let s=await Y(e,r.offset.expression),i=r.length?await Y(e,r.length.expression):void 0;`,
    replace: String.raw`let s,i,w=r.offset;try{s=I64c(await Y(e,r.offset.expression)),w=r.length,i=r.length?I64c(await Y(e,r.length.expression)):void 0}catch(q){if(q instanceof ce)throw Object.assign(new G(1,"","bash: line "+e.state.currentLine+": "+t+": "+(w?.Qsrc??"").replace(/^\s+/,"")+": "+q.message+"\n"),{Qar:!0});throw q}`,
  },
  {
    why: "(the same for ${a[@]:o:n} on an indirect array)",
    find: String.raw`let i=s.offset?await Y(e,s.offset.expression):0,o=s.length?await Y(e,s.length.expression):void 0,a=0;`,
    replace: String.raw`let i=s.offset?I64c(await Y(e,s.offset.expression)):0,o=s.length?I64c(await Y(e,s.length.expression)):void 0,a=0;`,
  },
  {
    why: "(the same for \"${a[@]:o:n}\")",
    find: String.raw`let c=l.offset?await n(e,l.offset.expression):0,u=l.length?await n(e,l.length.expression):void 0,f=K(e,o);`,
    replace: String.raw`let c=l.offset?I64c(await n(e,l.offset.expression)):0,u=l.length?I64c(await n(e,l.length.expression)):void 0,f=K(e,o);`,
  },
  {
    why: "(the same for \"${@:o:n}\")",
    find: String.raw`c=l.offset?await n(e,l.offset.expression):0,u=l.length?await n(e,l.length.expression):void 0,f=Number.parseInt(`,
    replace: String.raw`c=l.offset?I64c(await n(e,l.offset.expression)):0,u=l.length?I64c(await n(e,l.length.expression)):void 0,f=Number.parseInt(`,
  },
  {
    why: "(the same for \"${@:o:n}\" among other words)",
    find: String.raw`l=a.offset?await n(e,a.offset.expression):0,c=a.length?await n(e,a.length.expression):void 0,u=Number.parseInt(`,
    replace: String.raw`l=a.offset?I64c(await n(e,a.offset.expression)):0,c=a.length?I64c(await n(e,a.length.expression)):void 0,u=Number.parseInt(`,
  },
  {
    why: "return N's status is N's low 8 bits in 64 bits and a number outside 64 bits is refused, as bash's (return 9007199254740993 is 1, return 99999999999999999999 is `numeric argument required`, 2); just-bash's double rounded N to 9007199254740992 and gave 0",
    find: String.raw`s=Number.parseInt(r,10);if(r===""||Number.isNaN(s)||!/^-?\d+$/.test(r))return D(`,
    replace: String.raw`s=/^-?\d+$/.test(r)?BigInt(r):NaN;if(r===""||s!==s||s!==BigInt.asIntN(64,s))return D(`,
  },
  {
    why: "(its status)",
    find: String.raw`n=(s%256+256)%256}throw new Te(n)}`,
    replace: String.raw`n=Number(BigInt.asUintN(8,s))}throw new Te(n)}`,
  },
  {
    why: "(exit refuses a number outside 64 bits too: exit 99999999999999999999 is `numeric argument required`, 2, as bash's; just-bash gave 255)",
    find: String.raw`else{let i=BigInt(s);n=Number((i%256n+256n)%256n)}}throw new G(n,"",r)}`,
    replace: String.raw`else{let i=BigInt(s);i!==BigInt.asIntN(64,i)?(r=` + "`bash: exit: ${s}: numeric argument required\n`" + String.raw`,n=2):n=Number((i%256n+256n)%256n)}}throw new G(n,"",r)}`,
  },  {
    why: "a substring length that ends before its offset is bash's error, which ends the shell with status 1 as an arithmetic error does (s=abc; echo ${s:0:-5}; echo after prints `bash: line 1: -5: substring expression < 0` and no after; a subshell, $(...) or eval ends only itself); just-bash printed an empty line and went on. The message names the length as written: the parser keeps its text (Qsrc)",
    find: String.raw`function pi(e,t){let n=t.trim();return n===""?{type:"ArithmeticExpression",expression:{type:"ArithNumber",value:0}}:re(e,n)}`,
    replace: String.raw`function pi(e,t){let n=t.trim();return n===""?{type:"ArithmeticExpression",expression:{type:"ArithNumber",value:0},Qsrc:t}:Object.assign(re(e,n),{Qsrc:t})}`,
  },
  {
    why: "(on a string: a negative offset before the start or an offset past the end gives the empty string and no error, as bash's: s=abcdef; ${s: -10:2} and ${s: -9007199254740993:2} are empty, just-bash started at the first character; an end before the offset is the error unless the variable is unset: ${unset:0:-1} is empty)",
    find: String.raw`let a=[...n],l=s;if(l<0&&(l=Math.max(0,a.length+l)),i!==void 0){if(i<0){let c=a.length+i;return a.slice(l,Math.max(l,c)).join("")}`,
    replace: String.raw`let a=[...n],l=s;if(l<0&&(l=a.length+l,l<0)||l>a.length)return"";if(i!==void 0){if(i<0){let c=a.length+i;c<l&&(n!==""||e.state.env.get(t)!==void 0)&&Qsx(e,r.length);return a.slice(l,c).join("")}`,
  },
  {
    why: "(on $@ and $*: any negative length is the error, once the offset is inside the list, as bash's)",
    find: String.raw`if(i!==void 0){let h=i<0?d.length+i:p+i;return d.slice(p,Math.max(p,h)).join(" ")}`,
    replace: String.raw`if(i!==void 0){i<0&&Qsx(e,r.length);return d.slice(p,p+i).join(" ")}`,
  },
  {
    why: "(on an array's elements the same; just-bash's message named the array and the script went on)",
    find: "if(i!==void 0){if(i<0)throw new ce(`${o[1]}[@]: substring expression < 0`);",
    replace: String.raw`if(i!==void 0){if(i<0)Qsx(e,r.length);`,
  },
  {
    why: "(the same for \"${a[@]:o:n}\", where an offset past the last element gives nothing and no error)",
    find: "if(u<0)throw new ce(`${o}[@]: substring expression < 0`);p=f.slice(d,d+u)",
    replace: String.raw`if(u<0){if(d>=f.length)return{values:[],quoted:!0};Qsx(e,l.length)}p=f.slice(d,d+u)`,
  },
  {
    why: "(the same for \"${@:o:n}\" among other words, offset 0 or below)",
    find: String.raw`if(c!==void 0){let k=c<0?y.length+c:v+c;p=y.slice(v,Math.max(v,k))}`,
    replace: String.raw`if(c!==void 0){c<0&&Qsx(e,a.length);p=y.slice(v,v+c)}`,
  },
  {
    why: "(the same, offset above 0)",
    find: String.raw`else if(c!==void 0){let S=c<0?f.length+c:y+c;p=f.slice(y,Math.max(y,S))}`,
    replace: String.raw`else if(c!==void 0){c<0&&Qsx(e,a.length);p=f.slice(y,y+c)}`,
  },
  {
    why: "(the same for \"${@:o:n}\" alone in its word, offset 0 or below)",
    find: String.raw`if(u!==void 0){let v=u<0?g.length+u:S+u;h=g.slice(S,Math.max(S,v))}`,
    replace: String.raw`if(u!==void 0){u<0&&Qsx(e,l.length);h=g.slice(S,S+u)}`,
  },
  {
    why: "(the same, offset above 0)",
    find: String.raw`else if(u!==void 0){let y=u<0?d.length+u:g+u;h=d.slice(g,Math.max(g,y))}`,
    replace: String.raw`else if(u!==void 0){u<0&&Qsx(e,l.length);h=d.slice(g,g+u)}`,
  },
  {
    why: "an arithmetic error names where bash stopped, as bash's `(error token is \"...\")`: for / and % by zero the text after the operator (echo $((1 + 2/0 + 3)) says `division by 0 (error token is \"0 + 3\")`); just-bash said `division by 0` alone. The parser keeps the expression's text and the operator's end (Qs, Qp) on the node; Qtk builds the message",
    find: String.raw`let{expr:o,pos:a}=jr(e,t,s);r={type:"ArithBinary",operator:i,left:r,right:o},s=a}else break;return{expr:r,pos:s}}`,
    replace: String.raw`let{expr:o,pos:a}=jr(e,t,s);r={type:"ArithBinary",operator:i,left:r,right:o,Qs:t,Qp:s},s=a}else break;return{expr:r,pos:s}}`,
  },
  {
    why: "(for a negative exponent the token after the exponent, or the last one when none follows: 2**-1 + 5 says `(error token is \"+ 5\")`, 2**-1 `\"1\"`; Qq is where the exponent ends)",
    find: String.raw`let{expr:a,pos:l}=e.withDepth(()=>jr(e,t,i));return{expr:{type:"ArithBinary",operator:"**",left:r,right:a},pos:l}}`,
    replace: String.raw`let{expr:a,pos:l}=e.withDepth(()=>jr(e,t,i));return{expr:{type:"ArithBinary",operator:"**",left:r,right:a,Qs:t,Qq:l},pos:l}}`,
  },
  {
    why: "(the check, before the operator runs)",
    find: String.raw`let i=await s(t.left),o=await s(t.right);return Yp(i,o,t.operator)}`,
    replace: String.raw`let i=await s(t.left),o=await s(t.right);t.Qs!==void 0&&(t.operator==="**"?o<0:o===0)&&Qtk(t,t.operator==="**"?"exponent less than 0":"division by 0");return Yp(i,o,t.operator)}`,
  },
  {
    why: "(x/=0 and x%=0 the same way as the exponent: x/= 0 , 2 says `(error token is \", 2\")`)",
    find: String.raw`let{expr:f,pos:d}=e.withDepth(()=>ar(e,t,s));return{expr:{type:"ArithAssignment",operator:u,variable:c,value:f},pos:d}`,
    replace: String.raw`let{expr:f,pos:d}=e.withDepth(()=>ar(e,t,s));return{expr:{type:"ArithAssignment",operator:u,variable:c,value:f,Qs:t,Qq:d},pos:d}`,
  },
  {
    why: "(( ))'s error names the command and the expression as bash's: `bash: line 1: ((: 1/0: division by 0 (error token is \"0\")`; just-bash said `bash: arithmetic expression: ...` (the status, 1, is bash's)",
    find: "catch(n){return D(`bash: arithmetic expression: ${n.message}\n`)}",
    replace: "catch(n){return D(n instanceof ce&&typeof t.expression.originalText==\"string\"?\"bash: line \"+this.ctx.state.currentLine+\": ((: \"+(n.Qe??t.expression.originalText).replace(/^\\s+/,\"\")+\": \"+n.message+\"\\n\":`bash: arithmetic expression: ${n.message}\n`)}",
  },
  {
    why: "(let's the same: `bash: line 1: let: x=1/0: division by 0 (error token is \"0\")`; just-bash left out the line)",
    find: "catch(i){return D(`bash: let: ${s}: ${i.message}\n`)}",
    replace: "catch(i){return D(\"bash: line \"+e.state.currentLine+\": let: \"+(i.Qe??s).replace(/^\\s+/,\"\")+\": \"+i.message+\"\\n\")}",
  },
  {
    why: "an arithmetic error in an array subscript being assigned ends the shell with status 1 as bash's (a[1/0]=1; echo after prints only `bash: line 1: 1/0: division by 0 (error token is \"0\")`); just-bash failed that command and went on",
    find: String.raw`if(i.fatal)throw new G(1,"",l);return{index:0,error:L("",l,1)}`,
    replace: String.raw`throw Object.assign(new G(1,"",l),{Qar:!0})`,
  },
  {
    why: "(reading ${a[1/0]} too: bash ends the shell with `bash: line 1: 1/0: division by 0 (error token is \"0\")`; just-bash read element 0 and said nothing)",
    find: String.raw`try{let f=new Q,d=re(f,a);c=await Y(e,d.expression)}catch{let f=e.state.env.get(a);`,
    replace: String.raw`try{let f=new Q,d=re(f,a);c=await Y(e,d.expression)}catch(q){if(q instanceof ce)throw Object.assign(new G(1,"","bash: line "+e.state.currentLine+": "+a+": "+q.message+"\n"),{Qar:!0});let f=e.state.env.get(a);`,
  },
  {
    why: "an indexed array's subscripts are 64-bit as bash's (a[9007199254740993]=1; a[9007199254740992]=2 are two elements, listed in order; just-bash read the keys back as doubles, so the two met and an element past 2**53 was lost). The keys are the exact decimal text; ve reads them back in the I64 form (a number while safe, a BigInt past that) and sorts them as integers",
    find: String.raw`function ve(e,t){return Array.from(Pe(e,t)?.elements.keys()??[]).filter(r=>/^(0|[1-9]\d*)$/.test(r)).map(Number).sort((r,s)=>r-s)}`,
    replace: String.raw`function ve(e,t){return Array.from(Pe(e,t)?.elements.keys()??[]).filter(r=>/^(0|[1-9]\d*)$/.test(r)).map(r=>r.length<16?+r:I64n(BigInt(r))).sort((r,s)=>r<s?-1:r>s?1:0)}`,
  },
  {
    why: "(a negative subscript counts from the last index in 64 bits: a=(x y); a[9223372036854775807]=z; a[-1]=w; just-bash's Math.max and + threw on a BigInt; Qmx is the largest index. One that is still negative, a[-4]=x on three elements or a[9223372036854775808]=x (which wraps), is bash's `bad array subscript`, which ends the shell with status 1 as bash's; just-bash failed the command and went on)",
    find: "if(s<0){let i=K(e,t);if(i.length===0){let a=e.state.currentLine;return{index:0,error:L(\"\",`bash: line ${a}: ${t}[${n}]: bad array subscript\n`,1)}}if(s=Math.max(...i.map(([a])=>typeof a==\"number\"?a:0))+1+s,s<0){let a=e.state.currentLine;return{index:0,error:L(\"\",`bash: line ${a}: ${t}[${n}]: bad array subscript\n`,1)}}}",
    replace: "if(s<0){let i=K(e,t);if(i.length===0||(s=Yp(Yp(Qmx(i),1,\"+\"),s,\"+\"),s<0))throw Object.assign(new G(1,\"\",`bash: line ${e.state.currentLine}: ${t}[${n}]: bad array subscript\n`),{Qar:!0})}",
  },
  {
    why: "(the same when ${a[-1]} reads)",
    find: String.raw`let h=Math.max(...f.map(([w])=>typeof w=="number"?w:0))+1+c;`,
    replace: String.raw`let h=Yp(Yp(Qmx(f),1,"+"),c,"+");`,
  },
  {
    why: "(the same when $(( a[-1] )) reads)",
    find: String.raw`let p=Math.max(...u.map(([h])=>typeof h=="number"?h:0))+1+a;`,
    replace: String.raw`let p=Yp(Yp(Qmx(u),1,"+"),a,"+");`,
  },
  {
    why: "(a+=(...) appends after the largest index in 64 bits)",
    find: String.raw`F=Math.max(...T)+1),dn(e,O,Array.from({length:_.length},(ae,An)=>F+An))`,
    replace: String.raw`F=Yp(Qmx(T),1,"+")),dn(e,O,Array.from({length:_.length},(ae,An)=>Yp(F,An,"+")))`,
  },
  {
    why: "(the same, another form of the assignment)",
    find: String.raw`b=Math.max(...w)+1),dn(e,d,Array.from({length:m.length},(y,S)=>b+S))`,
    replace: String.raw`b=Yp(Qmx(w),1,"+")),dn(e,d,Array.from({length:m.length},(y,S)=>Yp(b,S,"+")))`,
  },
  {
    why: "(the same, a third form)",
    find: String.raw`A=Math.max(...k)+1),dn(e,p,Array.from({length:v.length},(N,P)=>A+P))`,
    replace: String.raw`A=Yp(Qmx(k),1,"+")),dn(e,p,Array.from({length:v.length},(N,P)=>Yp(A,P,"+")))`,
  },
  {
    why: "(and declare/local's a+=(...))",
    find: String.raw`o=Math.max(...a.map(([c])=>typeof c=="number"?c:0))+1;`,
    replace: String.raw`o=Yp(Qmx(a),1,"+");`,
  },
  {
    why: "(its elements' indices in 64 bits)",
    find: String.raw`else s();for(let a=0;a<i.length;a++)Z(e,t,o+a,i[a])}`,
    replace: String.raw`else s();for(let a=0;a<i.length;a++)Z(e,t,Yp(o,a,"+"),i[a])}`,
  },
  {
    why: "(a subscript written in digits is read in 64 bits, wrapping as bash's: ${a[N]} reads)",
    find: String.raw`let c;if(/^-?\d+$/.test(a))c=Number.parseInt(a,10);else try{`,
    replace: String.raw`let c;if(/^-?\d+$/.test(a))c=I64d(a);else try{`,
  },
  {
    why: "(a subscript written in digits is read in 64 bits, wrapping as bash's: [[ -v a[N] ]])",
    find: String.raw`let a;if(/^-?\d+$/.test(i))a=Number.parseInt(i,10);else try{`,
    replace: String.raw`let a;if(/^-?\d+$/.test(i))a=I64d(i);else try{`,
  },
  {
    why: "(a subscript written in digits is read in 64 bits, wrapping as bash's: test -v a[N])",
    find: String.raw`catch{if(/^-?\d+$/.test(s))o=Number.parseInt(s,10);else{`,
    replace: String.raw`catch{if(/^-?\d+$/.test(s))o=I64d(s);else{`,
  },
  {
    why: "(a subscript written in digits is read in 64 bits, wrapping as bash's: a[N]=v)",
    find: String.raw`let s;if(/^-?\d+$/.test(r))s=Number.parseInt(r,10);else{try{`,
    replace: String.raw`let s;if(/^-?\d+$/.test(r))s=I64d(r);else{try{`,
  },
  {
    why: "(a subscript written in digits is read in 64 bits, wrapping as bash's: a[N]+=v and declare)",
    find: String.raw`let i;if(/^-?\d+$/.test(r))i=Number.parseInt(r,10);else{try{`,
    replace: String.raw`let i;if(/^-?\d+$/.test(r))i=I64d(r);else{try{`,
  },
  {
    why: "an index that wrapped below zero is listed, as bash's: a[9223372036854775807]=x; a+=(q) puts q at -9223372036854775808, which ${!a[@]} and declare -p show first (issue 25, adversary round 26: the element was stored but never listed)",
    find: String.raw`function ve(e,t){return Array.from(Pe(e,t)?.elements.keys()??[]).filter(r=>/^(0|[1-9]\d*)$/.test(r))`,
    replace: String.raw`function ve(e,t){return Array.from(Pe(e,t)?.elements.keys()??[]).filter(r=>/^(0|-?[1-9]\d*)$/.test(r))`,
  },
  {
    why: "(declare's a+=(...) stores each element at its index in 64 bits: after 9223372036854775807 it threw `Cannot mix BigInt and other types`)",
    find: String.raw`for(let ae=0;ae<_.length;ae++)Z(e,O,F+ae,_[ae])`,
    replace: String.raw`for(let ae=0;ae<_.length;ae++)Z(e,O,Yp(F,ae,"+"),_[ae])`,
  },
  {
    why: "(the same, another form of a+=(...))",
    find: String.raw`for(let y=0;y<m.length;y++)Z(e,d,b+y,m[y])`,
    replace: String.raw`for(let y=0;y<m.length;y++)Z(e,d,Yp(b,y,"+"),m[y])`,
  },
  {
    why: "(the same, a third form)",
    find: String.raw`for(let N=0;N<v.length;N++)Z(e,p,A+N,v[N])`,
    replace: String.raw`for(let N=0;N<v.length;N++)Z(e,p,Yp(A,N,"+"),v[N])`,
  },
  {
    why: "an arithmetic error in an assignment to an integer variable ends the shell with status 1 as bash's (declare -i x; x='1/0'; echo after prints only `bash: line 1: 1/0: division by 0 (error token is \"0\")`); just-bash set x to 0 and went on. x+=EXPR reads EXPR alone first, so the message names it as bash's does (issue 25, adversary round 26)",
    find: String.raw`if(Er(e,a))try{let f=new Q;if(s){let p=` + "`(${e.state.env.get(a)||\"0\"}) + (${r})`" + String.raw`,h=re(f,p);c=String(await Y(e,h.expression))}else{let d=re(f,r);c=String(await Y(e,d.expression))}}catch{c="0"}`,
    replace: String.raw`if(Er(e,a))try{let f=new Q;if(s){let v=String(await Y(e,re(new Q,r).expression)),p=` + "`(${e.state.env.get(a)||\"0\"}) + (${v})`" + String.raw`,h=re(f,p);c=String(await Y(e,h.expression))}else{let d=re(f,r);c=String(await Y(e,d.expression))}}catch(q){if(q instanceof ce&&!t.name)throw Object.assign(new G(1,"","bash: line "+e.state.currentLine+": "+(q.Qe??r).replace(/^\s+/,"")+": "+q.message+"\n"),{Qar:!0});c="0"}`,
  },
  {
    why: "(declare's the same: declare -i x=1/0 says `bash: line 1: declare: 1/0: division by 0 (error token is \"0\")` and ends the shell, status 1)",
    find: String.raw`async function Fu(e,t){try{let n=new Q,r=re(n,t),s=await Y(e,r.expression);return String(s)}catch{return"0"}}`,
    replace: String.raw`async function Fu(e,t,w){try{let n=new Q,r=re(n,t),s=await Y(e,r.expression);return String(s)}catch(q){if(w!==void 0&&q instanceof ce)throw Object.assign(new G(1,"","bash: line "+e.state.currentLine+": "+w+(q.Qe??t).replace(/^\s+/,"")+": "+q.message+"\n"),{Qar:!0});return"0"}}`,
  },
  {
    why: "(the call in declare)",
    find: String.raw`Er(e,U)&&(j=await Fu(e,j))`,
    replace: String.raw`Er(e,U)&&(j=await Fu(e,j,"declare: "))`,
  },
  {
    why: "`0x` with no hex digit after it is 0, as bash 5.2 reads it ($((0x + 1)) is 1); just-bash called it `value too great for base` and ended the shell (issue 25, adversary round 26)",
    find: String.raw`if(s<t.length&&/[a-zA-Z_]/.test(t[s])){let p=c;`,
    replace: String.raw`if(c==="0"&&/[xX]/.test(t[s]??"")&&!/[a-zA-Z0-9_@#]/.test(t[s+1]??""))return{expr:{type:"ArithNumber",value:0},pos:s+1};if(s<t.length&&/[a-zA-Z_]/.test(t[s])){let p=c;`,
  },
  {
    why: "a number bash cannot read names itself and the expression up to it, as bash's: $((08 + 1)) says `bash: line 1: 08: value too great for base (error token is \"08\")`, 2# `invalid integer constant`, 1#1 `invalid arithmetic base`, 0#1 `invalid number` (just-bash said `value too great for base` alone); Qt is the literal's text, Qe the expression up to its end (Qbad)",
    find: String.raw`return{expr:{type:"ArithNumber",value:or(c)},pos:s}`,
    replace: String.raw`return{expr:{type:"ArithNumber",value:or(c),Qt:c,Qe:t.slice(0,s)},pos:s}`,
  },
  {
    why: "(the error, when the number is used)",
    find: String.raw`case"ArithNumber":if(Number.isNaN(t.value))throw new ce("value too great for base");return t.value;`,
    replace: String.raw`case"ArithNumber":if(Number.isNaN(t.value))throw Qbad(t);return t.value;`,
  },
  {
    why: "(a literal run into letters, 0xg: the expression up to it, once; just-bash wrote the token twice, `0xg: 0xg: value too great for base`)",
    find: "message:`${p}: value too great for base (error token is \"${p}\")`},pos:s}",
    replace: "message:`value too great for base (error token is \"${p}\")`,Qe:t.slice(0,s)},pos:s}",
  },
  {
    why: "(its error carries that text)",
    find: String.raw`case"ArithSyntaxError":throw new ce(t.message,"","",!0);`,
    replace: String.raw`case"ArithSyntaxError":throw Object.assign(new ce(t.message,"","",!0),t.Qe===void 0?{}:{Qe:t.Qe});`,
  },
];
