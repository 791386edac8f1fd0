// Exact-text corrections to just-bash 3.4.2's awk, nl, jq and compgen (its prebuilt bundle), where their
// values differ from gawk's, GNU nl's and jq's (issue 25). Applied by the CLI bundle (scripts/bundle-plugins.mjs), by the test
// runner (vitest.config.ts) and by Node's module hooks when the sources run (just-bash-hooks.mjs),
// so all run the same awk; each `find` must occur exactly once in
// just-bash's dist/bundle, or the build fails and test/shell/just-bash-patches.test.ts fails
// (a just-bash upgrade that moves the code: look at the new code, then update or drop the patch).

import { INT64_PATCHES } from "./just-bash-int64-patches.mjs";
import { JQ_NUMBER, JQ_NUMBER_PATCHES } from "./just-bash-jq-number-patches.mjs";
import { JQ_ORDER_PATCHES } from "./just-bash-jq-order-patches.mjs";
import { PRINTF_PATCHES } from "./just-bash-printf-patches.mjs";
import { AWK_CHAR_PATCHES, JQ_CHAR_PATCHES } from "./just-bash-jq-char-patches.mjs";
import { JQ_INPUT_PATCHES, JQ_LAZY_PATCHES, RE2_SCAN_PATCHES } from "./just-bash-jq-lazy-patches.mjs";
import { JQ_ERROR_PATCHES } from "./just-bash-jq-error-patches.mjs";
import { AWK_REGEX_HELPERS, AWK_REGEX_PATCHES } from "./just-bash-awk-regex-patches.mjs";
import { RE2JS_FILE, RE2JS_PATCHES } from "./re2js-work-patches.mjs";

export { RE2JS_FILE, RE2JS_PATCHES };

/**
 * awk's POSIX classes as gawk has them in a UTF-8 locale (glibc's iswalpha etc., whose tables
 * glibc derives from Unicode: alpha is Alphabetic plus non-ASCII decimal digits, upper/lower
 * are cased letters with a case mapping, space leaves out the no-break spaces, punct is every
 * graphic character that is not alphanumeric). just-bash's regex engine reads them as ASCII.
 * Each `[:name:]` inside a bracket becomes explicit ranges (RE2 knows no binary properties),
 * computed on first use from Node's Unicode tables: checked against gawk 5.2 on every code
 * point, they differ only where Node's Unicode is newer than glibc's (characters glibc does not
 * know yet, U+0363-036F now Alphabetic).
 */
const AWK_CLASSES = `function Sq(p){if(typeof p!="string"||!p.includes("[:"))return p;let o="",i=0,b=!1;for(;i<p.length;){let h=p[i];if(h==="\\\\"){o+=p.slice(i,i+2),i+=2;continue}if(!b){if(h==="["){b=!0,o+=h,i++,p[i]==="^"&&(o+="^",i++),p[i]==="]"&&(o+="]",i++);continue}o+=h,i++;continue}if(h==="["&&p[i+1]===":"){let e=p.indexOf(":]",i+2),n=e>0?Sq.body(p.slice(i+2,e)):void 0;if(n!==void 0){o+=n,i=e+2;continue}}h==="]"&&(b=!1),o+=h,i++}return o}
Sq.cache=new Map;
Sq.body=function(n){let t=Sq.test[n];if(t===void 0)return;let c=Sq.cache.get(n);if(c!==void 0)return c;if(Sq.all===void 0){let a=[];for(let cp=0;cp<1114112;cp+=16384){let q=[];for(let x=cp;x<cp+16384;x++)(x<55296||x>57343)&&q.push(x);a.push(String.fromCodePoint(...q))}Sq.all=a.join("")}
let o="",f=x=>"\\\\u{"+x.toString(16)+"}";for(let m of Sq.all.matchAll(new RegExp("(?:"+t+")+","gu"))){let lo=m[0].codePointAt(0),hi=m[0].codePointAt(m[0].length-(m[0].length>1&&m[0].codePointAt(m[0].length-2)>65535?2:1));o+=lo===hi?f(lo):f(lo)+"-"+f(hi)}Sq.cache.set(n,o);return o};
{let al="[\\\\p{Alphabetic}\\\\p{Nd}]",sp="(?![\\\\xA0\\\\u2007\\\\u202F])[\\\\t-\\\\r \\\\p{Zs}\\\\p{Zl}\\\\p{Zp}]",pr="[^\\\\p{Cc}\\\\p{Cn}\\\\p{Cs}\\\\p{Zl}\\\\p{Zp}]",gr="(?!"+sp+")"+pr;
Sq.test={alpha:"(?![0-9])"+al,digit:"[0-9]",alnum:al,upper:"[\\\\p{Uppercase}\\\\p{CWL}]",lower:"(?![\\\\u1F88-\\\\u1F8F\\\\u1F98-\\\\u1F9F\\\\u1FA8-\\\\u1FAF\\\\u1FBC\\\\u1FCC\\\\u1FFC])[\\\\p{Lowercase}\\\\p{CWU}]",space:sp,blank:"(?![\\\\xA0\\\\u2007\\\\u202F])[\\\\t\\\\p{Zs}]",cntrl:"[\\\\p{Cc}\\\\p{Zl}\\\\p{Zp}]",print:pr,graph:gr,punct:"(?!"+al+")"+gr,xdigit:"[0-9A-Fa-f]"}}`;

/**
 * awk's `\ddd` and `\xHH` escapes in a string are bytes, as in gawk: bytes that form UTF-8 are
 * the character they encode (`"\303\251"` is one `é`), any other byte is the lone surrogate
 * U+DC00 + byte, as printf's (BYTE_TEXT), so it is written as that byte. The lexer notes each
 * escaped byte as U+E000 plus the byte (Qu reads them back when the string ends).
 */
const AWK_BYTES = String.raw`function Qu(x){return x.replace(/[\ue000-\ue0ff]+/g,m=>{let b=[...m].map(c=>c.charCodeAt(0)-57344),o="",d=new TextDecoder("utf-8",{fatal:!0,ignoreBOM:!0});for(let i=0;i<b.length;){let n=b[i]<128?1:b[i]>=194&&b[i]<224?2:b[i]>=224&&b[i]<240?3:b[i]>=240&&b[i]<245?4:0,s=null;if(n>0&&i+n<=b.length)try{s=d.decode(Uint8Array.from(b.slice(i,i+n)))}catch{}s===null?(o+=String.fromCharCode(b[i]<128?b[i]:56320+b[i]),i++):(o+=s,i+=n)}return o})}`;

/**
 * gawk's asort(src[, dest]) and asorti(src[, dest]): the values (numbers first, in numeric order,
 * then strings) or the indices (as strings) of src, as elements 1..n of dest (src when there is
 * no dest); the count is returned.
 */
const AWK_ASORT = String.raw`async function Qa(e,t,n,x){if(e.length<1||e[0].type!=="variable")return 0;let s=Y(t,e[0].name),o=t.arrays[s]??{},k=Object.keys(o),l;if(x)l=k.sort((a,c)=>a<c?-1:a>c?1:0);else{let m=t.sa?.[s],u=k.map(q=>({v:o[q],n:typeof o[q]=="number"||m?.has(q)!==!0&&me(o[q])}));u.sort((a,c)=>a.n&&c.n?b(a.v)-b(c.v):a.n?-1:c.n?1:v(a.v)<v(c.v)?-1:v(a.v)>v(c.v)?1:0);l=u.map(q=>q.v)}let d=e.length>1&&e[1].type==="variable"?e[1].name:e[0].name;Ge(t,d);l.forEach((q,i)=>ye(t,d,String(i+1),q));return l.length}`;

/**
 * printf's `\NNN` (and, in `%b`, `\0NNN`) escapes are bytes, as in bash's printf: a run of byte
 * escapes (octal or `\xH`/`\xHH`, mixed) that forms UTF-8 is its characters (`\303\251` is one
 * `é`); any other byte 0x80-0xff is held as the lone surrogate U+DC80-U+DCFF (Python's
 * "surrogateescape": no UTF-8 text decodes to one), which printf writes as that byte
 * (PRINTF_NUMBERS' Qo): `printf '\377'` is one byte 0xff (issue 25; before, U+00FF's two bytes).
 * Qb reads the run at `e` (`b`: the `%b` form) and returns the text and the index after it.
 */
const PRINTF_BYTES = String.raw`function Qb(t,e,b){let y=[],m;for(;e<t.length&&t[e]==="\\";){let c=t[e+1];if(c==="x"){m=/^[0-9a-fA-F]{1,2}/.exec(t.slice(e+2,e+4));if(!m)break;y.push(parseInt(m[0],16)),e+=2+m[0].length;continue}if(b&&c==="0"){m=/^[0-7]{0,3}/.exec(t.slice(e+2,e+5));y.push(parseInt(m[0]||"0",8)&255),e+=2+m[0].length;continue}m=/^[0-7]{1,3}/.exec(t.slice(e+1,e+4));if(!m)break;y.push(parseInt(m[0],8)&255),e+=1+m[0].length}let o="",d=new TextDecoder("utf-8",{fatal:!0,ignoreBOM:!0});for(let i=0;i<y.length;){let n=y[i]<128?1:y[i]>=194&&y[i]<224?2:y[i]>=224&&y[i]<240?3:y[i]>=240&&y[i]<245?4:0,s=null;if(n>0&&i+n<=y.length)try{s=d.decode(Uint8Array.from(y.slice(i,i+n)))}catch{}s===null?(o+=String.fromCharCode(y[i]<128?y[i]:56320+y[i]),i++):(o+=s,i+=n)}return[o,e]}`;

/**
 * printf's output and numbers as bash 5.2 has them (issue 25), added to just-bash's printf chunk:
 * - Qo: the output as bytes, when it holds a byte escape that is no UTF-8 (PRINTF_BYTES' lone
 *   surrogates): each such surrogate is its byte, the rest UTF-8.
 * - Qi: `%d %i %o %u %x %X` of an integer written in decimal, octal (0...) or hex (0x...) as bash
 *   reads it, in 64 bits (BigInt): `%d` clamps to the int64 range, the others read it as
 *   strtoumax does (a negative number wraps: `%u -1` is 18446744073709551615) and clamp to
 *   uint64, each past its range with bash's warning (`printf: warning: N: Numerical result out of
 *   range`, status 0); flags, width and precision as C's printf (`%.0d` of 0 prints nothing).
 *   just-bash read a double (9223372036854775807 printed ...6000, `%x -1` printed 1). Other
 *   arguments (`'A`, `12abc`) go on to just-bash's code.
 * - Qh: `%a`/`%A` as glibc prints an x86-64 long double (bash's printf reads floats with
 *   strtold): a 64-bit mantissa whose first hex digit is 8-f, correctly rounded from the decimal
 *   argument (`%a` of 1 is `0x8p-3`, of 0.1 `0xc.ccccccccccccccdp-7`); just-bash refused `%a`.
 */
const PRINTF_NUMBERS = String.raw`function Qo(a){if(!/[\udc80-\udcff]/u.test(a))return{stdout:a};let o="";for(let s of a.split(/([\udc80-\udcff]+)/u))o+=/^[\udc80-\udcff]/u.test(s)?[...s].map(c=>String.fromCharCode(c.charCodeAt(0)-56320)).join(""):Buffer.from(s,"utf8").toString("latin1");return{stdout:o,stdoutKind:"bytes"}}
function Qf(e){let f=/^%([-+ #0']*)(\d*)(?:\.(\d*))?/.exec(e)??["","","",void 0];return{F:f[1],W:f[2]?Number(f[2]):0,P:f[3]!==void 0?Number(f[3]||0):-1}}
function Qw(s,pre,body,F,W,P){let t=pre+body;return W>t.length?F.includes("-")?t.padEnd(W," "):F.includes("0")&&P<0?pre+body.padStart(W-pre.length,"0"):t.padStart(W," "):t}
function Qi(e,l,n){if(!"diouxX".includes(l))return;let m=/^[ \t\n]*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.exec(n);if(!m)return;let g=m[2],v=BigInt(g.length>1&&g[0]==="0"?/[xX]/.test(g[1])?g:"0o"+g.slice(1):g);m[1]==="-"&&(v=-v);let M=(1n<<63n)-1n,U=(1n<<64n)-1n,w=!1;if(l==="d"||l==="i")v>M?(v=M,w=!0):v<-M-1n&&(v=-M-1n,w=!0);else{let a=v<0n?-v:v;a>U?(v=U,w=!0):v<0n&&(v+=1n<<64n)}
let{F,W,P}=Qf(e),neg=v<0n,a=neg?-v:v,d=a.toString(l==="o"?8:l==="x"||l==="X"?16:10);l==="X"&&(d=d.toUpperCase()),P===0&&a===0n&&(d=""),P>d.length&&(d=d.padStart(P,"0"));let pre="";l==="d"||l==="i"?pre=neg?"-":F.includes("+")?"+":F.includes(" ")?" ":"":F.includes("#")&&(l==="o"?d[0]!=="0"&&(d="0"+d):l!=="u"&&a!==0n&&(pre=l==="X"?"0X":"0x"));
return{value:Qw(0,pre,d,F,W,P),parseError:!1,parseErrMsg:w?"printf: warning: "+n+": Numerical result out of range\n":""}}
function Qh(e,l,n){let{F,W,P}=Qf(e),t=n.trim(),m=/^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(t),neg=!1,body;if(m&&(m[2]||m[3])){neg=m[1]==="-";let fr=m[3]??"",x=Number(m[4]??0),num=BigInt((m[2]||"0")+fr),den=1n;x-=fr.length;if(num===0n)body=null;else if(x>5000)body="inf";else if(x<-5100)body=null;else{x>=0?num*=10n**BigInt(x):den=10n**BigInt(-x);
let k=63-(num.toString(2).length-den.toString(2).length),q,r,div=()=>{let N=k>=0?num<<BigInt(k):num,D=k>=0?den:den<<BigInt(-k);q=N/D,r=N%D*2n;return D};let D=div();q>=1n<<64n?(k--,D=div()):q<1n<<63n&&(k++,D=div());(r>D||r===D&&(q&1n))&&q++;q===1n<<64n&&(q>>=1n,k--);
let h=q.toString(16),ex=60-k;if(P>=0&&P<15){let drop=BigInt(60-4*P),rest=q&((1n<<drop)-1n),half=1n<<(drop-1n);q>>=drop;(rest>half||rest===half&&(q&1n))&&q++;h=q.toString(16);h.length>P+1&&(h=h.slice(0,-1)+"",ex+=4)}let fd=h.slice(1);P<0?fd=fd.replace(/0+$/,""):fd=fd.padEnd(P,"0");body="0x"+h[0]+(fd||F.includes("#")?"."+fd:"")+"p"+(ex<0?"-":"+")+Math.abs(ex)}}else if(/^[+-]?inf(inity)?$/i.test(t))neg=t[0]==="-",body="inf";else if(/^[+-]?nan$/i.test(t))neg=t[0]==="-",body="nan";else return;
body===null&&(body="0x0"+(P>0?"."+"0".repeat(P):F.includes("#")?".":"")+"p+0");let pre=neg?"-":F.includes("+")?"+":F.includes(" ")?" ":"",s;if(/^0x/.test(body)&&F.includes("0")&&!F.includes("-")&&W>pre.length+body.length)s=pre+"0x"+body.slice(2).padStart(W-pre.length-2,"0");else s=Qw(0,pre,body,F.replace("0",""),W,P);l==="A"&&(s=s.toUpperCase());return{value:s,parseError:!1,parseErrMsg:""}}`;

/**
 * The one rule for bytes and text in the shell (issue 25; `src/engine/shell/lib/byte-text.ts` is
 * the same rule for our own commands, and `test/shell/byte-text.test.ts` checks the two agree).
 * Streams between commands are bytes (just-bash: a Latin-1 string, one character per byte); a
 * command that reads them as text gets UTF-8, where each byte that is not part of a well-formed
 * sequence is the lone surrogate U+DC80 + (byte - 0x80) (Python's "surrogateescape": no UTF-8 text
 * decodes to one), and text written back as bytes turns each such surrogate into its byte. So
 * text and bytes convert both ways without loss; only the call's output, at the very end, reads
 * the bytes as WHATWG's decoder does (`shownText`: each ill-formed sequence one U+FFFD).
 * Every decoder here keeps a byte order mark (`ignoreBOM`): EF BB BF are three bytes like any
 * others wherever they are in a stream (`printf '\357\273\277a' | wc -c` is 4), where a default
 * TextDecoder drops them when they come first (and PRINTF_BYTES' and AWK_BYTES', which decode one
 * sequence at a time, dropped every one); only the call's output drops one that starts it.
 * - Sbt: bytes (a Buffer) as text; native when they are UTF-8 (the common case).
 * - Sby: text as bytes (a Latin-1 string); native unless the text holds such a surrogate.
 * - Snul: a command substitution's output without its NUL bytes, bash's warning added to the
 *   expansion's stderr when it had any (bash drops them: a shell string ends at NUL); `n` is the
 *   line the substitution is on.
 * - Sbn: text whose byte escapes (echo -e, $'...', awk) were made surrogates, with each run that
 *   forms UTF-8 read as its characters (`\303\251` is é).
 */
const BYTE_TEXT = String.raw`function Sbt(r){try{return(Sbt.d??=new TextDecoder("utf-8",{fatal:!0,ignoreBOM:!0})).decode(r)}catch{}let o="",i=0,s=0,n=r.length;for(;i<n;){let b=r[i],k=b<128?1:b>=194&&b<=223?2:b>=224&&b<=239?3:b>=240&&b<=244?4:0,ok=k>0&&i+k<=n;if(ok&&k>1){let c=r[i+1];ok=c>=(b===224?160:b===240?144:128)&&c<=(b===237?159:b===244?143:191);for(let j=2;ok&&j<k;j++)ok=r[i+j]>=128&&r[i+j]<=191}if(ok)i+=k;else o+=r.toString("utf8",s,i)+String.fromCharCode(56320+b),s=++i}return o+r.toString("utf8",s,n)}
function Sby(t){let b=Buffer.from(t,"utf8").toString("latin1");if(b.indexOf("\xef\xbf\xbd")===-1||!/[\udc80-\udcff]/u.test(t))return b;return t.split(/([\udc80-\udcff]+)/u).map((p,i)=>i%2===1?p.replace(/[\udc80-\udcff]/gu,c=>String.fromCharCode(c.charCodeAt(0)-56320)):Buffer.from(p,"utf8").toString("latin1")).join("")}
function Snul(e,m,n){if(!m.includes("\0"))return m;e.state.expansionStderr=(e.state.expansionStderr||"")+"bash: line "+(n??1)+": warning: command substitution: ignored null byte in input\n";return m.replace(/\0/g,"")}
function Sbn(t){return/[\udc80-\udcff]/u.test(t)?t.replace(/[\udc80-\udcff]+/gu,m=>Sbt(Buffer.from(m.replace(/[\udc80-\udcff]/gu,c=>String.fromCharCode(c.charCodeAt(0)-56320)),"latin1"))):t}`;

/**
 * A lone surrogate (U+D800-U+DFFF outside a pair) means "a held byte" only where text was read
 * from bytes (BYTE_TEXT); text made from code points must not make one, or `\udcff` would be
 * written as the byte ff and JSON could forge any bytes (issue 25, adversary round 20):
 * - SURROGATE_BYTES: bash's `\u`/`\U` escapes (printf, echo -e, $'...') write a surrogate as its
 *   three bytes of generalised UTF-8 (`\udcff` is ed b3 bf, as bash 5.2), held as three
 *   placeholders; any other code point is its character.
 * - JSON_SURROGATES: JSON text (jq's input and fromjson, yq's and xan's JSON) with each escaped
 *   lone low surrogate `\udcXX` made `\ufffd` before JSON.parse, as jq 1.6's parser does; a valid
 *   pair stays (an emoji), and a high surrogate without its low half is jq's error.
 */
const SURROGATE_BYTES = String.raw`(q=>q>=55296&&q<=57343?String.fromCharCode(56557,56448|q>>6&63,56448|q&63):String.fromCodePoint(q))`;
const JSON_SURROGATES = String.raw`(j=>j.indexOf("\\u")<0?j:j.replace(/\\(?:u([dD][89abAB][0-9a-fA-F]{2})(\\u[dD][c-fC-F][0-9a-fA-F]{2})?|u[dD][c-fC-F][0-9a-fA-F]{2}|[^])/g,(m,h,l)=>h===void 0?m.length===6?"\\ufffd":m:l!==void 0?m:(()=>{throw new Error("Invalid \\uXXXX\\uXXXX surrogate pair escape")})()))`;

/**
 * jq's JSON text of a value (tojson, tostring, @json, @text, "\\(.)") in steps the work budget
 * counts: one per node written, and one more per 256 characters of a string, so a huge shared
 * tree (`reduce range(27) as $i (1; [., .])`, 2^27 leaves held as 27 arrays) stops at the work
 * limit on any machine. JSON.stringify wrote it in one native step that neither the work count
 * nor the CPU check between steps reached (18.6 s of CPU to the 60 s clock). The text is
 * JSON.stringify's: keys in insertion order, each leaf written by JSON.stringify itself, an
 * undefined array element null and an undefined property left out. `c` is the jq context's
 * coverage writer (the call's budget), absent where none is given. A number is written as jq 1.6
 * writes it (JQ_NUMBER's Qnum, defined with it).
 */
const JQ_JSON = JQ_NUMBER + String.raw`function Qj(v,c){let leaf=x=>{typeof x=="string"&&x.length>255&&c?.charge?.("jq:tojson",x.length>>>8);return typeof x=="number"?Qnum(x):JSON.stringify(x)};c?.hit("jq:tojson");if(v===null||typeof v!="object")return leaf(v);let open=x=>Array.isArray(x)?{v:x,k:null,i:0,n:0}:{v:x,k:Object.keys(x),i:0,n:0},o="",p=[Array.isArray(v)?"[":"{"],q=[open(v)];for(;q.length>0;){p.length>=4096&&(o+=p.join(""),p.length=0);let f=q[q.length-1];if(f.i>=(f.k===null?f.v.length:f.k.length)){p.push(f.k===null?"]":"}");q.pop();continue}let x,key;if(f.k===null){x=f.v[f.i++];(x===void 0||typeof x=="function"||typeof x=="symbol")&&(x=null)}else{key=f.k[f.i++];x=f.v[key];if(x===void 0||typeof x=="function"||typeof x=="symbol")continue}f.n++>0&&p.push(",");key!==void 0&&p.push(JSON.stringify(key)+":");c?.hit("jq:tojson");x!==null&&typeof x=="object"?(p.push(Array.isArray(x)?"[":"{"),q.push(open(x))):p.push(leaf(x))}return o+p.join("")}`;

/** One correction: the exact minified text, what replaces it, and why. */
export const JUST_BASH_PATCHES = [
  // Shell arithmetic in signed 64 bits (just-bash-int64-patches.mjs).
  ...INT64_PATCHES,
  // printf's byte widths and rounding of ties (just-bash-printf-patches.mjs).
  ...PRINTF_PATCHES,
  // jq's order and equality, counted (just-bash-jq-order-patches.mjs).
  ...JQ_ORDER_PATCHES,
  // jq's number text (just-bash-jq-number-patches.mjs).
  ...JQ_NUMBER_PATCHES,
  {
    why: "jq's flatten walks its array in steps the work budget counts (one per element it visits), so a flatten of a huge shared tree stops at the work limit, or at the CPU limit in the process's own thread, instead of running to the 60 s clock in one native step (Array.prototype.flat: 2^27 elements were 16.5 s of CPU and 1.6 GB; issue 25)",
    find: String.raw`if(u<0)throw new Error("flatten depth must not be negative");return e.flat(u)}):[null];case"unique"`,
    replace: String.raw`if(u<0)throw new Error("flatten depth must not be negative");let o=[],q=[[e,0,u]];for(;q.length>0;){let f=q[q.length-1];if(f[1]>=f[0].length){q.pop();continue}let v=f[0][f[1]++];r.coverage?.hit("jq:flatten");Array.isArray(v)&&f[2]>=1?q.push([v,0,f[2]-1]):o.push(v)}return o}):[null];case"unique"`,
  },
  {
    why: "jq's tojson writes its text in steps the work budget counts (JQ_JSON: one per node), so the JSON text of a huge shared tree stops at the work limit, exit 124, on any machine, instead of running to the 60 s clock in one native step (JSON.stringify: 2^27 leaves were 18.6 s of CPU; issue 25, security.md row 73's open case)",
    find: String.raw`case"tojson":case"tojsonstream":{let o=r.limits.maxDepth??Ae;return B(e,o+1)>o?[null]:[JSON.stringify(e)]}case"fromjson"`,
    replace: String.raw`case"tojson":case"tojsonstream":{let o=r.limits.maxDepth??Ae;return B(e,o+1)>o?[null]:[Qj(e,r.coverage)]}case"fromjson"`,
  },
  {
    why: "(tostring the same)",
    find: String.raw`case"tostring":return typeof e=="string"?[e]:[JSON.stringify(e)];`,
    replace: String.raw`case"tostring":return typeof e=="string"?[e]:[Qj(e,r.coverage)];`,
  },
  {
    why: "(the formats' function gets the context, for @json and @text; JQ_JSON defined beside it)",
    find: String.raw`function ye(e,n,t){switch(n){case"@base64":`,
    replace: String.raw`${JQ_JSON}function ye(e,n,t,c){switch(n){case"@base64":`,
  },
  {
    why: "(its caller passes the context's coverage writer)",
    find: String.raw`let f=ye(e,n,r.limits.maxDepth);`,
    replace: String.raw`let f=ye(e,n,r.limits.maxDepth,r.coverage);`,
  },
  {
    why: "(@json the same)",
    find: String.raw`case"@json":{let r=t??ze;return B(e,r+1)>r?[null]:[JSON.stringify(e)]}`,
    replace: String.raw`case"@json":{let r=t??ze;return B(e,r+1)>r?[null]:[Qj(e,c)]}`,
  },
  {
    why: "@text is tostring, as in jq 1.6 ([1,[2]] | @text is \"[1,[2]]\" and null | @text \"null\"; just-bash wrote String(e): \"1,2\" and \"\", the array joined in one native step), in counted steps (JQ_JSON)",
    find: String.raw`case"@text":return typeof e=="string"?[e]:e==null?[""]:[String(e)];`,
    replace: String.raw`case"@text":return typeof e=="string"?[e]:[Qj(e,c)];`,
  },
  {
    why: "(a string interpolation's values the same: \"\\(.)\")",
    find: String.raw`r.append(typeof p=="string"?p:JSON.stringify(p))`,
    replace: String.raw`r.append(typeof p=="string"?p:Qj(p,t.coverage))`,
  },
  {
    why: "the one rule for bytes and text (issue 25, BYTE_TEXT): a byte that is not part of UTF-8 read as text is the lone surrogate U+DC80-U+DCFF (Python's surrogateescape), and such a surrogate written as bytes is its byte again, so text and bytes convert both ways without loss (x=$(printf '\\377'), sed, 2>&1 | od); just-bash read such input whole as Latin-1 and wrote U+00FF's two bytes back. The conversions are native (Buffer) where the bytes are UTF-8",
    find: String.raw`function a(t,n=d){let e=t;if(!e)return e;f(e.length,n,"UTF-8 decode");let o=!1;for(let i=0;i<e.length;i++){let c=e.charCodeAt(i);if(c>255)return e;c>127&&(o=!0)}if(!o)return e;let r=new Uint8Array(e.length);for(let i=0;i<e.length;i++)r[i]=e.charCodeAt(i);try{return u.decode(r)}catch{return e}}function l(t,n=d){if(!t)return t;f(x(t),n,"UTF-8 encode");let e=y.encode(t),o="";for(let r=0;r<e.length;r++)o+=String.fromCharCode(e[r]);return o}`,
    replace: String.raw`${BYTE_TEXT}function a(t,n=d){let e=t;if(!e)return e;f(e.length,n,"UTF-8 decode");let o=!1;for(let i=0;i<e.length;i++){let c=e.charCodeAt(i);if(c>255)return e;c>127&&(o=!0)}if(!o)return e;return Sbt(Buffer.from(e,"latin1"))}function l(t,n=d){if(!t)return t;f(x(t),n,"UTF-8 encode");return Sby(t)}`,
  },
  {
    why: "a file just-bash holds (a process substitution's output at /dev/fd/N) is read as text by the same rule (BYTE_TEXT): just-bash's in-memory filesystem read it with a default TextDecoder, which dropped a leading byte order mark (wc -c <(printf '\\357\\273\\277a') was 1, bash 4; diff <(printf 'a\\n') <(printf '\\357\\273\\277a\\n') saw no difference) and made each byte that is not UTF-8 U+FFFD (cat <(printf '\\377') | od was ef bf bd)",
    find: "var u=new TextEncoder,a=new TextDecoder;function o(r,i){",
    replace: String.raw`${BYTE_TEXT}var u=new TextEncoder,a={decode:r=>Sbt(Buffer.from(r.buffer,r.byteOffset,r.byteLength))};function o(r,i){`,
  },
  {
    why: "(Sbn, the escapes' normalizer, for echo -e, $'...' and awk)",
    find: "export{x as a,h as b,p as c,a as d,l as e,b as f,B as g,s as h,F as i,T as j,C as k,E as l};",
    replace: "export{x as a,h as b,p as c,a as d,l as e,b as f,B as g,s as h,F as i,T as j,C as k,E as l,Sbn,Snul};",
  },
  {
    why: "echo -e's \\0NNN and \\xHH are bytes as in bash: a run that forms UTF-8 is its characters, any other byte that byte (echo -e '\\xff' | od is ff; just-bash wrote U+00FF's two bytes c3 bf) (BYTE_TEXT)",
    find: String.raw`if(a.length===0)s+="\0";else{let l=parseInt(a,8)%256;s+=String.fromCharCode(l)}e=t;break}case"x":{let a="",t=e+2;for(;t<r.length&&t<e+4&&/[0-9a-fA-F]/.test(r[t]);)a+=r[t],t++;if(a.length===0)s+="\\x",e+=2;else{let l=parseInt(a,16);s+=String.fromCharCode(l),e=t}break}`,
    replace: String.raw`if(a.length===0)s+="\0";else{let l=parseInt(a,8)%256;s+=String.fromCharCode(l<128?l:56320+l)}e=t;break}case"x":{let a="",t=e+2;for(;t<r.length&&t<e+4&&/[0-9a-fA-F]/.test(r[t]);)a+=r[t],t++;if(a.length===0)s+="\\x",e+=2;else{let l=parseInt(a,16);s+=String.fromCharCode(l<128?l:56320+l),e=t}break}`,
  },
  {
    why: "(the run of byte escapes read as UTF-8 where it is)",
    find: String.raw`if(o){let l=n(t);if(t=l.output,l.stop)return{stdout:t,stderr:"",exitCode:0,internalStdinConsumed:0}}`,
    replace: String.raw`if(o){let l=n(t);if(t=Sbn(l.output),l.stop)return{stdout:t,stderr:"",exitCode:0,internalStdinConsumed:0}}`,
  },
  {
    why: "(echo's chunk imports Sbn)",
    find: String.raw`import{createRequire} from"node:module";const require=createRequire(import.meta.url);
function n(r){let s="",e=0;for(;e<r.length;)if(r[e]==="\\"){`,
    replace: String.raw`import{createRequire} from"node:module";import{Sbn}from"./chunk-GN6CQ3J4.js";const require=createRequire(import.meta.url);
function n(r){let s="",e=0;for(;e<r.length;)if(r[e]==="\\"){`,
  },
  {
    why: "$'...''s \\xHH and \\NNN are bytes as in bash ($'\\303\\251' is é, $'\\xff' the byte ff); just-bash made each octal escape a character and a \\x byte that is no UTF-8 U+00FF-like characters (BYTE_TEXT)",
    find: String.raw`a.length>0?(r+=bd(a),s=l):(r+="\\x",s+=2);break}`,
    replace: String.raw`a.length>0?(r+=a.map(b=>String.fromCharCode(b<128?b:56320+b)).join(""),s=l):(r+="\\x",s+=2);break}`,
  },
  {
    why: "(the octal form, and the literal's runs read as UTF-8 where they are)",
    find: String.raw`let c=parseInt(a,8);r+=String.fromCharCode(c),s=l;break}default:r+=i,s++}else r+=i,s++}return s<t.length&&t[s]==="'"&&s++,{part:M.literal(r),endIndex:s}}`,
    replace: String.raw`let c=parseInt(a,8)&255;r+=String.fromCharCode(c<128?c:56320+c),s=l;break}default:r+=i,s++}else r+=i,s++}return s<t.length&&t[s]==="'"&&s++,{part:M.literal(Sbn(r)),endIndex:s}}`,
  },
  {
    why: "(index.js imports Sbn and Snul)",
    find: `import{a as B,b as er,c as cn,d as Vf,e as Tt,f as Xs,g as vn,h as zf,i as xt,j as Ys,k as Uf,l as jf}from"./chunks/chunk-GN6CQ3J4.js";`,
    replace: `import{a as B,b as er,c as cn,d as Vf,e as Tt,f as Xs,g as vn,h as zf,i as xt,j as Ys,k as Uf,l as jf,Sbn,Snul}from"./chunks/chunk-GN6CQ3J4.js";`,
  },
  {
    why: "the call's stdout and stderr are text already (each statement's output is read as text by BYTE_TEXT's rule where just-bash joins them); just-bash read them once more as bytes where every character is below 256, so a text that only looked like UTF-8 read as Latin-1 changed (echo 'Ã©' showed é). The docs shell shows the surrogates as U+FFFD at the very end (shownText)",
    find: "t.stdout=_f(t.stdout),t.stderr=_f(t.stderr),t}",
    replace: "t}",
  },
  {
    why: "read sets its variables to text (BYTE_TEXT): it split the bytes of its input and stored them as they were, so echo é | { read v; echo \"$v\"; } piped on c3 83 c2 a9, U+00C3 U+00A9's bytes (it showed é only because just-bash guessed at the end of the call that the output was UTF-8)",
    find: "S===`\n`&&v.endsWith(`\n`)&&(v=v.slice(0,-1));",
    replace: "v=Vf(v),S===`\n`&&v.endsWith(`\n`)&&(v=v.slice(0,-1));",
  },
  {
    why: "(read -n and -N too)",
    find: "v=b.substring(0,_),C(v)",
    replace: "v=Vf(b.substring(0,_)),C(v)",
  },
  {
    why: "(mapfile's elements too)",
    find: "for(let g=0;g<f.length;g++)Z(e,l,i+g,f[g]);return e.state.groupStdin",
    replace: "for(let g=0;g<f.length;g++)Z(e,l,i+g,Vf(f[g]));return e.state.groupStdin",
  },
  {
    why: "a redirection that sends one stream where the other goes (>&2, 2>&1, 1>&2 2>&1) converts its text or bytes to the kind of that stream (BYTE_TEXT): printf 'é\\377' >&2 showed Ã©ÿ, the bytes read as Latin-1 text, and an error line merged into a byte output lost its UTF-8",
    find: `case"live-stdout":l+=A;break;case"live-stderr":c+=A;break;`,
    replace: `case"live-stdout":l+=N||d!=="binary"?A:Tt(A);break;case"live-stderr":c+=N&&d==="binary"?Vf(A):A;break;`,
  },
  {
    why: "printf's format: \\xH with one hex digit is a byte too (printf '\\x4g' is 0x04 then g), and bytes that are not UTF-8 are bytes (PRINTF_BYTES); just-bash wanted two digits and printed \\x4g",
    find: String.raw`case"x":{let l=[],i=e;for(;i+3<t.length&&t[i]==="\\"&&t[i+1]==="x"&&/[0-9a-fA-F]{2}/.test(t.slice(i+2,i+4));)l.push(parseInt(t.slice(i+2,i+4),16)),i+=4;if(l.length>0){try{let o=new TextDecoder("utf-8",{fatal:!0});n+=o.decode(new Uint8Array(l))}catch{for(let o of l)n+=String.fromCharCode(o)}e=i}else n+=t[e],e++;break}`,
    replace: String.raw`case"x":{${PRINTF_BYTES}let[q,z]=Qb(t,e,!1);z===e?(n+=t[e],e++):(n+=q,e=z);break}`,
  },
  {
    why: "printf writes a byte that is not UTF-8 as that byte (printf '\\377' | od is one byte 0xff; it was U+00FF's two), and has 64-bit integer conversions and %a (PRINTF_NUMBERS)",
    find: String.raw`var G={name:"printf",summary:`,
    replace: String.raw`${PRINTF_NUMBERS}var G={name:"printf",summary:`,
  },
  {
    why: "printf's output is bytes when it holds a byte that is not UTF-8 (PRINTF_NUMBERS' Qo)",
    find: String.raw`return{stdout:a,stderr:p,exitCode:x?1:0,internalStdinConsumed:0}}catch(t){`,
    replace: String.raw`return{...Qo(a),stderr:p,exitCode:x?1:0,internalStdinConsumed:0}}catch(t){`,
  },
  {
    why: "printf -v: a byte that is not UTF-8 is kept as the character of its code, as before (a shell variable holds text here)",
    find: String.raw`if(c===0&&i.length>0,n){let g=n.match(`,
    replace: String.raw`if(c===0&&i.length>0,n){a=a.replace(/[\udc80-\udcff]/gu,u=>String.fromCharCode(u.charCodeAt(0)-56320));let g=n.match(`,
  },
  {
    why: "printf %q quotes as bash does in a UTF-8 locale (PRINTF_QUOTE): the $'...' form only for a string holding a character that is not printable (a control, U+0080-U+009F, an unassigned code point, U+2028/2029) or a byte that is not UTF-8, and inside it such a byte is its own \\ooo (printf %q $'a\\377' is $'a\\377'); just-bash took U+0080-U+00FF for bytes, so é was quoted as $'\\351' (a byte é is not) and a held byte came out raw",
    find: String.raw`let n=/[\x00-\x1f\x7f-\xff]/.test(e),r=n?3:0;`,
    replace: String.raw`let n=/[\x00-\x1f\x7f\p{Cc}\p{Cn}\p{Zl}\p{Zp}\udc80-\udcff]/u.test(e),r=n?3:0;`,
  },
  {
    why: "(printf %q: inside $'...', a held byte is \\ooo of that byte, a character that is not printable \\ooo of each of its UTF-8 bytes, any other character itself, a double quote too)",
    find: String.raw`s<32||s>=127&&s<=255?i+=${"`"}\\${"${"}s.toString(8).padStart(3,"0")}${"`"}:t==='"'?i+='\\"'`,
    replace: String.raw`s>=56448&&s<=56575?i+="\\"+(s-56320).toString(8):s<32||s===127||/[\p{Cc}\p{Cn}\p{Zl}\p{Zp}]/u.test(t)?i+=[...Buffer.from(t,"utf8")].map(b=>"\\"+b.toString(8).padStart(3,"0")).join("")`,
  },
  {
    why: "a NUL byte in a command substitution's output is dropped, with bash's warning on stderr (x=$(printf 'a\\0b') is ab, and bash: line N: warning: command substitution: ignored null byte in input), before its trailing newlines are cut (BYTE_TEXT's Snul); just-bash kept the NUL in the variable and in the arguments it made",
    find: "e.substitutionDepth=i+1;let l=e.state.bashPid;",
    replace: "e.substitutionDepth=i+1;let Ln=e.state.currentLine,Es=e.state.expansionStderr,l=e.state.bashPid;e.state.expansionStderr=\"\";",
  },
  {
    why: "(the NUL bytes dropped, and the line the substitution is on and the stderr of the substitutions before it in the same command restored: its own script ran from line 1, and its first command emptied what they had written, so echo $(echo e1 >&2) $(echo e2 >&2) showed only e2)",
    find: String.raw`let m=p.stdout.replace(/\n+$/,"");return Kt(m,e.limits.maxStringLength,"command substitution"),m}`,
    replace: String.raw`e.state.currentLine=Ln,e.state.expansionStderr=(Es||"")+(e.state.expansionStderr||"");let m=Snul(e,p.stdout,Ln).replace(/\n+$/,"");return Kt(m,e.limits.maxStringLength,"command substitution"),m}`,
  },
  {
    why: "(the same when the substitution ends with exit)",
    find: String.raw`let h=p.stdout.replace(/\n+$/,"");return Kt(h,e.limits.maxStringLength,"command substitution"),h}`,
    replace: String.raw`e.state.currentLine=Ln,e.state.expansionStderr=(Es||"")+(e.state.expansionStderr||"");let h=Snul(e,p.stdout,Ln).replace(/\n+$/,"");return Kt(h,e.limits.maxStringLength,"command substitution"),h}`,
  },
  {
    why: "(the same for a substitution in a text expanded again: arithmetic, patterns)",
    find: "async function ns(e,t){let n=new Q,r;",
    replace: "async function ns(e,t){let Ln=e.state.currentLine,Es=e.state.expansionStderr,n=new Q,r;e.state.expansionStderr=\"\";",
  },
  {
    why: "(the same, its output)",
    find: String.raw`e.state.bashPid=s,c.stdout.replace(/\n+$/,"")}catch(c){`,
    replace: String.raw`e.state.bashPid=s,e.state.currentLine=Ln,e.state.expansionStderr=(Es||"")+(e.state.expansionStderr||""),Snul(e,c.stdout,Ln).replace(/\n+$/,"")}catch(c){`,
  },
  {
    why: "(the same for $(...) and `...` in a word expanded by the arithmetic's own reader)",
    find: String.raw`i+=u.stdout.replace(/\n+$/,""),u.stderr`,
    replace: String.raw`i+=Snul(e,u.stdout,e.state.currentLine).replace(/\n+$/,""),u.stderr`,
  },
  {
    why: "(the backquoted form there)",
    find: String.raw`i+=c.stdout.replace(/\n+$/,""),c.stderr`,
    replace: String.raw`i+=Snul(e,c.stdout,e.state.currentLine).replace(/\n+$/,""),c.stderr`,
  },
  {
    why: "a command that expands to nothing ($(echo err >&2), $(printf '\\0')) writes what its expansions wrote to stderr, as bash does; just-bash dropped it (and the NUL warning with it)",
    find: 'return m?(w.finish(),L("","",this.ctx.state.lastExitCode)):(w.finish(),D(',
    replace: 'return m?(w.finish(),((E)=>(this.ctx.state.expansionStderr="",L("",E,this.ctx.state.lastExitCode)))((o||"")+(this.ctx.state.expansionStderr||""))):(w.finish(),D(',
  },
  {
    why: "printf %c prints the first byte of its argument (printf '%c' é is 0xc3, as bash; it was U+00C3's two bytes)",
    find: String.raw`let a=new TextEncoder().encode(n)[0];return{value:String.fromCharCode(a),`,
    replace: String.raw`let a=new TextEncoder().encode(n)[0];return{value:String.fromCharCode(a<128?a:56320+a),`,
  },
  {
    why: "printf: a % at the end of the format is bash's error (`%': missing format character, status 1), not a literal %",
    find: String.raw`if(e[t]==="%"&&t+1<e.length){let p=t;`,
    replace: String.raw`if(e[t]==="%"){let p=t;`,
  },
  {
    why: "printf: a conversion it does not know (%5%, %z) or none (printf 'a%5') stops with bash's error and status 1, after what was printed; just-bash said [sprintf] unexpected placeholder",
    find: String.raw`let C=e[t]||"";t++;let m=e.slice(p,t);`,
    replace: String.raw`let C=e[t]||"";if(C===""||!"diouxXeEfFgGcsqQbaA".includes(C))return{result:i,argsConsumed:s,error:!0,errMsg:C===""?"printf: `+"`"+String.raw`"+e.slice(p)+"': missing format character\n":"printf: `+"`"+String.raw`"+C+"': invalid format character\n",stopped:!0};t++;let m=e.slice(p,t);`,
  },
  {
    why: "printf: every invalid number and range warning is reported, not only the last (bash prints each)",
    find: String.raw`R&&(a=!0,W&&(f=W))`,
    replace: String.raw`R&&(a=!0),W&&(f+=W)`,
  },
  {
    why: "printf: the same across the format's reuse for the remaining arguments",
    find: String.raw`C&&(x=!0,b&&(p=b)),m)break`,
    replace: String.raw`C&&(x=!0),b&&(p+=b),m)break`,
  },
  {
    why: "printf's integer conversions in 64 bits and %a/%A (PRINTF_NUMBERS' Qi, Qh)",
    find: String.raw`function Q(e,l,n,r){let o=!1,i="";switch(l){`,
    replace: String.raw`function Q(e,l,n,r){let o=!1,i="";{let w=l==="a"||l==="A"?Qh(e,l,n):Qi(e,l,n);if(w)return w}switch(l){`,
  },
  {
    why: "printf's format: a run of \\NNN escapes is bytes, and UTF-8 bytes are their character (printf '\\303\\251' | od -c is one é, two bytes); just-bash made each escape a character, so a pipe got é's bytes as two characters (PRINTF_BYTES)",
    find: String.raw`case"0":case"1":case"2":case"3":case"4":case"5":case"6":case"7":{let l="",i=e+1;for(;i<t.length&&i<e+4&&/[0-7]/.test(t[i]);)l+=t[i],i++;n+=String.fromCharCode(parseInt(l,8)),e=i;break}`,
    replace: String.raw`case"0":case"1":case"2":case"3":case"4":case"5":case"6":case"7":{${PRINTF_BYTES}let[q,z]=Qb(t,e,!1);n+=q,e=z;break}`,
  },
  {
    why: "printf %b: the same for \\0NNN and \\NNN ('%b' '\\303\\251' is é), and \\xH with one digit; just-bash made each octal escape a character (PRINTF_BYTES)",
    find: String.raw`case"x":{let i=[],t=r;for(;t+1<e.length&&e[t]==="\\"&&e[t+1]==="x";){let s="",a=t+2;for(;a<e.length&&a<t+4&&/[0-9a-fA-F]/.test(e[a]);)s+=e[a],a++;if(s)i.push(parseInt(s,16)),t=a;else break}i.length>0?(n+=X(i),r=t):(n+="\\x",r+=2);break}`,
    replace: String.raw`case"x":case"0":case"1":case"2":case"3":case"4":case"5":case"6":case"7":{${PRINTF_BYTES}let[q,z]=Qb(e,r,!0);z===r?(n+="\\"+e[r+1],r+=2):(n+=q,r=z);break}`,
  },
  {
    why: "printf %b: \\e is ESC, as in bash (just-bash printed \\e)",
    find: String.raw`case"v":n+="\v",r+=2;break;case"c":return{value:n,stopped:!0};`,
    replace: String.raw`case"v":n+="\v",r+=2;break;case"e":case"E":n+="\x1B",r+=2;break;case"c":return{value:n,stopped:!0};`,
  },
  {
    why: "int() truncates toward zero (int(-3.7) is -3), just-bash floored",
    find: "async function ct(e,t,n){return e.length===0?0:Math.floor(F(await n.evalExpr(e[0])))}",
    replace: "async function ct(e,t,n){return e.length===0?0:Math.trunc(F(await n.evalExpr(e[0])))}",
  },
  {
    why: "printf %d/%i truncates toward zero (printf \"%d\", -3.7 prints -3)",
    find: 'case"d":case"i":{let p=y!==void 0?Math.floor(Number(y)):0;',
    replace: 'case"d":case"i":{let p=y!==void 0?Math.trunc(Number(y)):0;',
  },
  {
    why: "%g (and so print's OFMT) cut the exponent's zeros (print 1e20 printed 1e+2) and printed one exponent digit",
    find: 'd.includes(".")&&(d=d.replace(/\\.?0+$/,"").replace(/\\.?0+e/,"e")),d.includes("e")&&(d=d.replace(/\\.?0+e/,"e")),',
    replace:
      'f.includes("#")||(/e/i.test(d)?d=d.replace(/\\.?0+(?=e)/i,""):d.includes(".")&&(d=d.replace(/\\.?0+$/,""))),d=d.replace(/([eE][+-])(\\d)$/,"$10$2"),',
  },
  {
    why: "%f rounds an exact half to even, as glibc does (printf \"%.0f\", 2.5 prints 2; JS's toFixed rounds it up)",
    find: "let g=p.toFixed(N);",
    replace:
      'let g=p.toFixed(N);{let a=Math.abs(p);if(a<1e21){let x=a.toFixed(100),i=x.indexOf("."),t=x.slice(0,N===0?i:i+1+N);/^50*$/.test(x.slice(i+1+N))&&Number(t.slice(-1))%2===0&&(g=(p<0?"-":"")+t)}}',
  },
  {
    why: "%e prints at least two exponent digits (1.234568e+04)",
    find: 'let g=p.toExponential(N);if(W==="E"',
    replace: 'let g=p.toExponential(N).replace(/e([+-])(\\d)$/,"e$10$2");if(W==="E"',
  },
  {
    why: "print writes an integral value as an integer whatever its size (2^53, 1e30), as gawk does",
    find: "Number.isInteger(o)&&Math.abs(o)<Number.MAX_SAFE_INTEGER?r.push(String(o))",
    replace: "Number.isInteger(o)?r.push(BigInt(o).toString())",
  },
  {
    why: "a number becomes a string as CONVFMT (Cv, default %.6g) makes it (length(1/3) is 8, 1e-5 \"\" is 1e-05), integers as integers",
    find: 'function v(e){return typeof e=="string"?e:(Number.isInteger(e),String(e))}',
    replace: 'var Cv="%.6g";function v(e){return typeof e=="string"?e:Number.isInteger(e)?BigInt(e).toString():ie(Cv,[e])}',
  },
  {
    why: "the same for the string functions' arguments (length(1/3) is 8, substr(1e20, 1, 3) is 100)",
    find: 'function L(e){return typeof e=="string"?e:(Number.isInteger(e),String(e))}',
    replace: 'function L(e){return typeof e=="string"?e:Number.isInteger(e)?BigInt(e).toString():ie(Cv,[e])}',
  },
  {
    why: "toupper/tolower map one character at a time (glibc towupper): ß stays ß, as in gawk",
    find: 'L(await n.evalExpr(e[0])).toUpperCase()}',
    replace: '[...L(await n.evalExpr(e[0]))].map(c=>{let u=c.toUpperCase();return[...u].length===1?u:c}).join("")}',
  },
  {
    why: "toupper/tolower map one character at a time: İ lowers to i",
    find: 'L(await n.evalExpr(e[0])).toLowerCase()}',
    replace: '[...L(await n.evalExpr(e[0]))].map(c=>{let u=c==="\\u0130"?"i":c.toLowerCase();return[...u].length===1?u:c}).join("")}',
  },
  {
    why: "default field splitting is on spaces, tabs and newlines only: a CRLF line's \\r stays in its last field (NF of \"\\r\" is 1)",
    find: 'e.FS===" "?t.trim().split(/\\s+/).filter(Boolean):e.fieldSep.split(t)}',
    replace: 'e.FS===" "?t.split(/[ \\t\\n]+/).filter(Boolean):e.fieldSep.split(t,void 0,e)}',
  },
  {
    why:
      'split()\'s separator is read as FS is: " " (FS\'s default) splits on runs of spaces, tabs and newlines and ignores them at both ends ' +
      '(split("  a b  ", x) is 2, "a" and "b"; just-bash split on \\s+ and kept empty ends), one other character is itself, "" splits characters, ' +
      'anything longer is a regex (split(s, x, "[, ]+"), FS = "[ ]" with no third argument)',
    find: String.raw`async function nt(e,t,n){if(e.length<2)return 0;let r=L(await n.evalExpr(e[0])),s=e[1];if(s.type!=="variable")return 0;let a=s.name,o=t.FS;if(e.length>=3){let f=e[2];if(f.type==="regex")o=O(f.pattern);else{let k=L(await n.evalExpr(f));o=k===" "?O("\\s+"):k}}else t.FS===" "&&(o=O("\\s+"));`,
    replace:
      String.raw`function Qs(k){return k===" "?{split:(r,c)=>{let x=r.replace(/^[ \t\n]+|[ \t\n]+$/g,"");return x===""?[]:x.split(/[ \t\n]+/,c)}}:k===""?{split:(r,c)=>[...r].slice(0,c)}:k.length===1?k:Qr(O(k))}` +
      // A regex separates where it matches something: an empty match is no separator (split("a,,b", x, /,*/) is 2, as in gawk).
      String.raw`function Qr(q){return{split:(r,c=1/0,k)=>{let m=q._re2.matcher(r),u=[],a=0,o=0,z=Qrn.n;for(;u.length<c&&o<=r.length&&(Zra(k,z),m.find(o));){z=Zrk(k,z);let s=m.start(0),e=m.end(0);e>s?(u.push(r.slice(a,s)),a=o=e):o=e+1}Zrk(k,z);u.push(r.slice(a));return u}}}` +
      String.raw`async function nt(e,t,n){if(e.length<2)return 0;let r=L(await n.evalExpr(e[0])),s=e[1];if(s.type!=="variable")return 0;let a=s.name,o=t.FS;if(e.length>=3){let f=e[2];o=f.type==="regex"?Qr(O(f.pattern)):L(await n.evalExpr(f))}typeof o=="string"&&(o=Qs(o));`,
  },
  {
    why: "FS of one character other than a space is that character, not a regex (FS = \"|\" splits on |, FS = \".\" on dots); a longer FS is a regex whose empty matches separate nothing (-F',*'); FS = \"\" (and -v FS=) makes each character a field, as gawk's (issue 25, adversary round 26: it was one field)",
    find: String.raw`else try{e.fieldSep=O(t)}catch{`,
    replace: String.raw`else try{e.fieldSep=t===""?{split:x=>[...x]}:t.length===1&&t!=="\\"?{split:x=>x.split(t)}:Qr(O(t))}catch{`,
  },
  {
    why: "(the same for -F: a regex separator's empty matches separate nothing; -F',*' on \"a,,b\" is 2 fields, just-bash failed)",
    find: String.raw`try{return O(e)}catch{return O(qe(e))}return O(qe(e))}function qe(e)`,
    replace: String.raw`try{return Qr(O(e))}catch{return Qr(O(qe(e)))}return Qr(O(qe(e)))}function qe(e)`,
  },
  {
    why: "assigning $0 (sub, gsub, getline var...) splits it as a record is split (spaces, tabs and newlines only; an empty $0 has no field)",
    find: String.raw`n.fields=n.FS===" "?t.trim().split(/\s+/).filter(Boolean):n.fieldSep.split(t),n.NF=n.fields.length;`,
    replace: String.raw`n.fields=Fe(n,t),n.NF=n.fields.length;`,
  },
  {
    why: 'split("", a) makes no element and returns 0',
    find: "u=typeof o==\"string\"?r.split(o,c+1):o.split(r,c+1);",
    replace: "u=r===\"\"?[]:typeof o==\"string\"?r.split(o,c+1):o.split(r,c+1,t);",
  },
  {
    why: "CONVFMT is a special variable: assigning it changes how numbers become strings (Cv); each awk run starts at %.6g",
    find: 'case"SUBSEP":e.SUBSEP=v(n);return}e.vars[t]=n}',
    replace: 'case"SUBSEP":e.SUBSEP=v(n);return;case"CONVFMT":Cv=v(n);break;case"IGNORECASE":Iq=P(n),De(e,e.FS)}e.vars[t]=n}',
  },
  {
    why: "CONVFMT reads as its value (%.6g by default)",
    find: 'return e.vars[t]??""}function j(',
    replace: 'return t==="CONVFMT"?Cv:e.vars[t]??""}function j(',
  },
  {
    why: "CONVFMT starts at %.6g in every awk run",
    find: 'OFMT:"%.6g",NR:0',
    replace: 'OFMT:(Cv="%.6g",Iq=!1,"%.6g"),NR:0',
  },
  {
    why: "a string becomes a number by its leading decimal number, as strtod reads it (\"12px\" is 12, \"0x1f\" is 0, \"1e3x\" is 1000); +inf, -inf, +nan and -nan alone (with their sign, any case) are infinite and not a number, as gawk reads them (Qi)",
    find: 'function b(e){if(typeof e=="number")return e;let t=parseFloat(e);return Number.isNaN(t)?0:t}',
    replace:
      'function Qi(e){return/^[ \\t\\n\\r\\f\\v]*[-+](?:inf|nan)[ \\t\\n\\r\\f\\v]*$/i.test(e)}' +
      'function b(e){if(typeof e=="number")return e;if(Qi(e))return/nan/i.test(e)?NaN:e.includes("-")?-1/0:1/0;let t=/^[ \\t\\n\\r\\f\\v]*([-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?)/.exec(e);return t===null?0:parseFloat(t[1])}' +
      // printf's integer conversions (d i u o x X), with flags, width and precision: used by the switch patch below
      'function Gi(W,f,k,C,y){let p=Math.trunc(y),n=p<0&&(W==="d"||W==="i"),g;if(W==="d"||W==="i")g=BigInt(Math.abs(p)).toString();else{if(Math.abs(p)>=18446744073709551616)return ie("%"+f+k+(C===""?"":"."+C)+"g",[y]);g=(p<0?BigInt.asUintN(64,BigInt(p)):BigInt(p)).toString(W==="o"?8:W==="u"?10:16);W==="X"&&(g=g.toUpperCase())}' +
      'C!==""&&(g=C==="0"&&p===0?"":g.padStart(parseInt(C,10),"0"));let x=n?"-":W!=="d"&&W!=="i"?"":f.includes("+")?"+":f.includes(" ")?" ":"";f.includes("#")&&p!==0&&(W==="x"?x+="0x":W==="X"?x+="0X":W==="o"&&!g.startsWith("0")&&(g="0"+g));' +
      'let z=x+g;if(k){let q=parseInt(k,10);f.includes("-")?z=z.padEnd(q):f.includes("0")&&C===""?z=x+g.padStart(q-x.length,"0"):z=z.padStart(q)}return z}',
  },
  {
    why: "the same conversion for the math functions' arguments",
    find: 'function F(e){if(typeof e=="number")return e;let t=parseFloat(e);return Number.isNaN(t)?0:t}',
    replace: 'function F(e){return b(e)}',
  },
  {
    why: "a string looks numeric (for comparisons) only as a whole decimal number with blanks around it (\" 0x1f\" and \"Infinity\" are strings)",
    find: 'function me(e){if(typeof e=="number")return!0;let t=String(e).trim();return t===""?!1:!Number.isNaN(Number(t))}',
    replace: 'function me(e){return typeof e=="number"||/^[ \\t\\n\\r\\f\\v]*[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?[ \\t\\n\\r\\f\\v]*$/.test(String(e))||Qi(String(e))}',
  },
  {
    why: 'a comparison with a string constant, a concatenation or a string function\'s result compares as strings ("10" < "9" is 1, $1 == "1.0" compares text)',
    find: "if(vt(n))return It(r,s,n);",
    replace: "if(vt(n))return It(r,s,n,Sx(t.left,e)||Sx(t.right,e)||ls||rs,lu,ru);",
  },
  {
    why: "(the comparison's string side, for the patch above)",
    find: "function It(e,t,n){let r=me(e),s=me(t);",
    replace:
      'function Sx(e,s){return e.type==="string"||e.type==="variable"&&s?.st?.[e.name]===1||e.type==="binary"&&e.operator===" "||e.type==="call"&&/^(substr|sprintf|tolower|toupper|gensub)$/.test(e.name)}' +
      'function It(e,t,n,q,lu,ru){let r=!q&&(lu||me(e)),s=!q&&(ru||me(t));',
  },
  {
    why:
      "an uninitialized variable or element compares as a number with a number or a numeric field (x == 0 is 1, -5 > max is 0 while max is unset) " +
      "and as \"\" with a string, as in gawk; just-bash compared it as the string \"\" always. Each side of a comparison notes whether it read one (Sbn)",
    find: String.raw`let r=await R(e,"binary left evaluation",()=>E(e,t.left)),s=await R(e,"binary right evaluation",()=>E(e,t.right));`,
    replace:
      String.raw`let r=await R(e,"binary left evaluation",()=>E(e,t.left)),lu=Sbn(e,t.left),ls=Qz(e,t.left),s=await R(e,"binary right evaluation",()=>E(e,t.right)),ru=Sbn(e,t.right),rs=Qz(e,t.right);`,
  },
  {
    why: "(uninitialized values: a variable no assignment made, or the element the last array read found unassigned, e.qa)",
    find: String.raw`function ye(e,t,n,r){let s=Y(e,t);`,
    replace:
      String.raw`function Qz(e,t){return t.type==="array_access"&&e.qs===!0}function Sbn(e,t){return t.type==="variable"?!(t.name in e.vars)&&!/^(FS|OFS|ORS|OFMT|CONVFMT|NR|NF|FNR|FILENAME|RSTART|RLENGTH|SUBSEP|ARGC|RS)$/.test(t.name):t.type==="array_access"&&e.qa===!0}` +
      String.raw`function ye(e,t,n,r){let s=Y(e,t);e.ua?.delete(s+"\x1c"+n);e.sa?.[s]?.delete(n);`,
  },
  {
    why: "(uninitialized values: ENVIRON's missing names are, ARGV's and the others' start unknown)",
    find: String.raw`function ae(e,t,n){if(t==="ARGV")return e.ARGV[n]??"";if(t==="ENVIRON")return e.ENVIRON[n]??"";`,
    replace: String.raw`function ae(e,t,n){e.qa=!1;e.qs=!1;if(t==="ARGV")return e.ARGV[n]??"";if(t==="ENVIRON")return e.qa=e.ENVIRON[n]===void 0,e.ENVIRON[n]??"";`,
  },
  {
    why:
      "a variable assigned a string constant, a concatenation or a string function's result is a string, not a number that looks like one " +
      "(x = substr($1, 1); x < $2 compares text): its name is noted in e.st until it is assigned otherwise",
    find: String.raw`else if(r.type==="variable")j(e,r.name,a);else{`,
    replace: String.raw`else if(r.type==="variable")j(e,r.name,a),(e.st??={})[r.name]=s==="="&&(Sx(t.value,e)||Vs)?1:0;else{`,
  },
  {
    why: "(string variables: a function's parameters take their arguments' kinds, a missing argument is uninitialized, and the caller's are restored after it)",
    find: String.raw`let f=await R(e,"user function argument evaluation",()=>E(e,u));e.vars[c]=f}else e.vars[c]=""}`,
    replace: String.raw`let f=await R(e,"user function argument evaluation",()=>E(e,u));e.vars[c]=f,(e.st??={})[c]=Sx(u,e)||Qz(e,u)?1:0}else delete e.vars[c],e.st&&delete e.st[c]}`,
  },
  {
    why: "(string variables: the caller's kinds, kept across the call)",
    find: String.raw`let r=Object.create(null);for(let l of t.params)r[l]=e.vars[l];`,
    replace: String.raw`let r=Object.create(null),Tq=t.params.map(l=>e.st?.[l]);for(let l of t.params)r[l]=e.vars[l];`,
  },
  {
    why: "(string variables: restored after the call)",
    find: String.raw`for(let l of t.params)r[l]!==void 0?e.vars[l]=r[l]:delete e.vars[l];`,
    replace: String.raw`for(let l of t.params)r[l]!==void 0?e.vars[l]=r[l]:delete e.vars[l];t.params.forEach((l,i)=>Tq[i]===void 0?e.st&&delete e.st[l]:e.st[l]=Tq[i]);`,
  },
  {
    why: 'a reference to an array element creates it (x["a"]; length(x) is 1), as in gawk; ("a" in x) does not',
    find: 'let r=Y(e,t);return e.arrays[r]?.[n]??""}',
    replace: String.raw`let r=Y(e,t),s=e.arrays[r]?.[n],k=r+"\x1c"+n;return s===void 0&&(ye(e,t,n,""),(e.ua??=new Set).add(k)),e.qa=s===void 0||s===""&&e.ua?.has(k)===!0,e.qs=s!==void 0&&e.sa?.[r]?.has(n)===!0,s??""}`,
  },
  {
    why: "printf: too few arguments is a fatal error (exit 2, gawk's message); numeric conversions read a string's leading number (\"12px\" is 12); inf and nan print as +inf, -inf, -nan (no width); %u, %#x, %#o and negative %x/%X/%o/%u as 64-bit unsigned",
    find: "let W=e[u],y=t[A!==void 0?A:r];switch(W){",
    replace:
      'let W=e[u],y=t[A!==void 0?A:r];if(y===void 0&&"sdiuoxXeEfFgGc".includes(W))throw new Error(`cmd. line:1: fatal: not enough arguments to satisfy format string\\n\\t\\`${e}\'\\n\\t${" ".repeat(u)}^ ran out for this one`);' +
      'if("diuoxXeEfFgG".includes(W)){y=b(y);if(!Number.isFinite(y)){c(Number.isNaN(y)?"-nan":y>0?"+inf":"-inf"),A===void 0&&r++,o=u+1;continue}' +
      'if("diuoxX".includes(W)){c(Gi(W,f,k,C,y)),A===void 0&&r++,o=u+1;continue}}switch(W){',
  },
  {
    why: "RS: \"\" is paragraph mode (records between blank lines, leading and trailing newlines dropped), one character splits on it, more is a regex",
    find: 'let G=d.split(`\n`);if(G.length>0&&G[G.length-1]===""&&G.pop(),G.length>y)',
    replace:
      'let G,Z=A.vars.RS===void 0?"\\n":v(A.vars.RS);if(Z===""){let D=d.replace(/^\\n+/,"");G=D===""?[]:D.split(/\\n\\n+/);G.length>0&&(G[G.length-1]=G[G.length-1].replace(/\\n+$/,""))}else G=Z.length===1?d.split(Z):Zrs(A,O(Z),d);if(G.length>0&&G[G.length-1]===""&&G.pop(),G.length>y)',
  },
  {
    why: "in paragraph mode a newline separates fields too when FS is one character",
    find: 'function Fe(e,t){return t===""?[]:',
    replace: 'function Fe(e,t){return t===""?[]:e.vars.RS===""&&e.FS!==" "&&(e.FS.length===1||/^(\\[.\\]|\\\\.)$/.test(e.FS))?t.split("\\n").flatMap(x=>x===""?[]:e.fieldSep.split(x,void 0,e)):',
  },
  {
    why: "0x11 and 011 in a program are hexadecimal and octal constants (17 and 9), as in gawk",
    find: 'readNumber(){let t=this.line,n=this.column,r="";',
    replace:
      'readNumber(){let t=this.line,n=this.column,r="";if(this.peek()==="0"&&/^[xX]$/.test(this.peek(1))&&/^[0-9a-fA-F]$/.test(this.peek(2))){for(r=this.advance()+this.advance();/^[0-9a-fA-F]$/.test(this.peek());)r+=this.advance();return{type:i.NUMBER,value:parseInt(r,16),line:t,column:n}}',
  },
  {
    why: "(octal constants, for the patch above)",
    find: "return{type:i.NUMBER,value:parseFloat(r),line:t,column:n}}",
    replace: "return{type:i.NUMBER,value:/^0[0-7]+$/.test(r)?parseInt(r,8):parseFloat(r),line:t,column:n}}",
  },
  {
    why: "the exponent of ^ and ** may carry a sign (2**-1 is 0.5, 2^-2^2 is 2^-(2^2))",
    find: "parsePower(){let t=this.parsePostfix();if(this.check(i.CARET)){this.advance();let n=this.withDepth(()=>this.parsePower());",
    replace: "parsePower(){let t=this.parsePostfix();if(this.check(i.CARET)){this.advance();let n=this.withDepth(()=>this.parseUnary());",
  },
  {
    why: "length(array) is its number of elements (just-bash read the array as an empty variable: 0); a string's length counts characters, not UTF-16 units",
    find: "async function Je(e,t,n){return e.length===0?t.line.length:L(await n.evalExpr(e[0])).length}",
    replace:
      'async function Je(e,t,n){if(e.length>0&&e[0].type==="variable"){let a=e[0].name==="ARGV"?t.ARGV:e[0].name==="ENVIRON"?t.ENVIRON:t.arrays[Y(t,e[0].name)];if(a)return Object.keys(a).length}return[...(e.length===0?t.line:L(await n.evalExpr(e[0])))].length}',
  },
  {
    why: 'concatenation binds tighter than comparison and match, which bind tighter than in (POSIX): "a" x < "a9" compares "a" x with "a9" (just-bash compared x with "a9" first)',
    find: "parseIn(){let t=this.parseConcatenation();if(this.check(i.IN)){this.advance();let n=this.expect(i.IDENT).value;return{type:\"in\",key:t,array:n}}return t}parseConcatenation(){let t=this.parseMatch();for(;this.canStartExpression()&&!this.isConcatTerminator();){let n=this.parseMatch();t={type:\"binary\",operator:\" \",left:t,right:n}}return t}parseMatch(){let t=this.parseComparison();for(;this.match(i.MATCH,i.NOT_MATCH);){let n=this.advance().type===i.MATCH?\"~\":\"!~\",r=this.parseComparison();t={type:\"binary\",operator:n,left:t,right:r}}return t}parseComparison(){let t=this.parseAddSub();for(;this.match(i.LT,i.LE,i.GT,i.GE,i.EQ,i.NE);){let n=this.advance(),r=this.parseAddSub();t={type:\"binary\",operator:new Map([[\"<\",\"<\"],[\"<=\",\"<=\"],[\">\",\">\"],[\">=\",\">=\"],[\"==\",\"==\"],[\"!=\",\"!=\"]]).get(n.value)??\"==\",left:t,right:r}}return t}",
    replace: "parseIn(){let t=this.parseMatch();if(this.check(i.IN)){this.advance();let n=this.expect(i.IDENT).value;return{type:\"in\",key:t,array:n}}return t}parseConcatenation(){let t=this.parseAddSub();for(;this.canStartExpression()&&!this.isConcatTerminator();){let n=this.parseAddSub();t={type:\"binary\",operator:\" \",left:t,right:n}}return t}parseMatch(){let t=this.parseComparison();for(;this.match(i.MATCH,i.NOT_MATCH);){let n=this.advance().type===i.MATCH?\"~\":\"!~\",r=this.parseComparison();t={type:\"binary\",operator:n,left:t,right:r}}return t}parseComparison(){let t=this.parseConcatenation();for(;this.match(i.LT,i.LE,i.GT,i.GE,i.EQ,i.NE);){let n=this.advance(),r=this.parseConcatenation();t={type:\"binary\",operator:new Map([[\"<\",\"<\"],[\"<=\",\"<=\"],[\">\",\">\"],[\">=\",\">=\"],[\"==\",\"==\"],[\"!=\",\"!=\"]]).get(n.value)??\"==\",left:t,right:r}}return t}",
  },
  {
    why: "the same precedence in print's and printf's arguments (print a \" \" b ~ /re/ matches the concatenation)",
    find: "function We(e){let t=Jt(e);if(e.check(h.IN)){e.advance();let n=String(e.expect(h.IDENT).value);return{type:\"in\",key:t,array:n}}return t}function Jt(e){let t=Ve(e);for(;en(e)&&!tn(e);){let n=Ve(e);t={type:\"binary\",operator:\" \",left:t,right:n}}return t}function Ve(e){let t=ze(e);for(;e.match(h.MATCH,h.NOT_MATCH);){let n=e.advance().type===h.MATCH?\"~\":\"!~\",r=ze(e);t={type:\"binary\",operator:n,left:t,right:r}}return t}function ze(e){let t=e.parseAddSub();for(;e.match(h.LT,h.LE,h.GE,h.EQ,h.NE);){let n=e.advance(),r=e.parseAddSub();t={type:\"binary\",operator:new Map([[\"<\",\"<\"],[\"<=\",\"<=\"],[\">=\",\">=\"],[\"==\",\"==\"],[\"!=\",\"!=\"]]).get(n.value)??\"==\",left:t,right:r}}return t}",
    replace: "function We(e){let t=Ve(e);if(e.check(h.IN)){e.advance();let n=String(e.expect(h.IDENT).value);return{type:\"in\",key:t,array:n}}return t}function Jt(e){let t=e.parseAddSub();for(;en(e)&&!tn(e);){let n=e.parseAddSub();t={type:\"binary\",operator:\" \",left:t,right:n}}return t}function Ve(e){let t=ze(e);for(;e.match(h.MATCH,h.NOT_MATCH);){let n=e.advance().type===h.MATCH?\"~\":\"!~\",r=ze(e);t={type:\"binary\",operator:n,left:t,right:r}}return t}function ze(e){let t=Jt(e);for(;e.match(h.LT,h.LE,h.GE,h.EQ,h.NE);){let n=e.advance(),r=Jt(e);t={type:\"binary\",operator:new Map([[\"<\",\"<\"],[\"<=\",\"<=\"],[\">=\",\">=\"],[\"==\",\"==\"],[\"!=\",\"!=\"]]).get(n.value)??\"==\",left:t,right:r}}return t}",
  },
  {
    why: "nl: a line it does not number is as many spaces as the number's width and the separator's bytes, then the line (GNU nl), not spaces, a tab and the line",
    find: 'let b=`${" ".repeat(r.width)}${r.separator}${n}`;',
    replace: 'let b=`${" ".repeat(r.width+new TextEncoder().encode(r.separator).length)}${n}`;',
  },
  {
    why: "jq's debug writes [\"DEBUG:\",value] to stderr, one compact line per value (just-bash passed the value on silently); collected in the query's shared budget",
    find: 'case"debug":return[e];',
    replace: 'case"debug":return r.budget.debug?.push(`["DEBUG:",${JSON.stringify(e)??"null"}]`),[e];',
  },
  {
    why: "(jq debug: the command's query starts with an empty list of debug lines)",
    find: "budget:{operations:0,callDepth:0}},l=(o,f)=>",
    replace: "budget:{operations:0,callDepth:0,debug:[]}},l=(o,f)=>",
  },
  {
    why: "(jq debug: the lines go to stderr, after the output)",
    find: 'stderr:"",exitCode:te}}catch(r){if(r instanceof H)throw r;',
    replace: 'stderr:n.budget.debug.map(d=>d+`\n`).join(""),exitCode:te}}catch(r){if(r instanceof H)throw r;',
  },
  {
    why: "compgen -G GLOB lists what the glob matches (just-bash read the glob and printed nothing); its value is kept in Gq",
    find: 'else if(A==="-G"){if(k++,k>=t.length)return D(`compgen: -G: option requires an argument\n`,2)}',
    replace: 'else if(A==="-G"){if(k++,k>=t.length)return D(`compgen: -G: option requires an argument\n`,2);var Gq=t[k]}',
  },
  {
    why: "(compgen -G: the glob's matches, in the order the shell's globs sort them; bash ignores a word after it)",
    find: "if(a){let k=await wo(e,o,b(),w);",
    replace: 'if(Gq!==void 0){let k=await Rp(e).expand(Gq);g(k.slice(0,b()))}if(a){let k=await wo(e,o,b(),w);',
  },
  {
    why: "(compgen -G: a glob that matches nothing exits 1, as bash does)",
    find: 'if(S.length===0&&o!==null)return L(y,"",1);',
    replace: 'if(S.length===0&&(o!==null||Gq!==void 0))return L(y,"",1);',
  },
  {
    why: "awk's POSIX classes ([[:alpha:]], [[:upper:]], [[:space:]], ...) are gawk's Unicode ones in a UTF-8 locale, not ASCII",
    find: 'import{a as O,b as X}from"./chunk-KVG5FR5F.js";',
    replace: `import{a as Oq,b as X,Qrn,Qra,Qrd}from"./chunk-KVG5FR5F.js";${AWK_REGEX_HELPERS}var Iq=!1;const O=(p,f="",...r)=>Oq(Sq(p),Iq?f+"i":f,...r),Lq=x=>[...x].map(c=>{let u=c.toLowerCase();return[...u].length===1?u:c}).join("");${AWK_CLASSES}${AWK_BYTES}${AWK_ASORT}`,
  },
  {
    why: "(awk's POSIX classes: the lexer no longer rewrites a lone [[:alpha:]] to ASCII ranges first)",
    find: 'function qt(e){return e.replace(/\\[\\[:space:\\]\\]/g,',
    replace: 'function qt(e){return e;e.replace(/\\[\\[:space:\\]\\]/g,',
  },
  {
    why:
      "an array element assigned a string constant, a concatenation or a string function's result holds a string, not a number that looks like one " +
      '(a[1] = "10"; a[1] < 9 compares text, as in gawk), while one assigned a field or made by split() compares as a number when it looks like one: ' +
      "each array's string elements are noted in e.sa, the last element read in e.qs (Qz), and the assigned value's kind is read right after it is computed (Vs)",
    find: String.raw`R(e,"assignment value evaluation",()=>E(e,t.value)),r=t.target`,
    replace: String.raw`R(e,"assignment value evaluation",()=>E(e,t.value)),Vs=Qz(e,t.value),r=t.target`,
  },
  {
    why: "(string elements: an assignment of a string marks the element)",
    find: String.raw`ye(e,r.array,o,a)}return a}`,
    replace: String.raw`ye(e,r.array,o,a),s==="="&&(Sx(t.value,e)||Vs)&&((e.sa??={})[Y(e,r.array)]??=new Set).add(o)}return a}`,
  },
  {
    why: "(string elements: split() makes every element anew, numbers where they look like ones)",
    find: String.raw`"array_elements");t.arrays[a]=Object.create(null);`,
    replace: String.raw`"array_elements");t.arrays[a]=Object.create(null);t.sa&&(delete t.sa[a],delete t.sa[Y(t,a)]);`,
  },
  {
    why: "(string elements: delete forgets an element's mark, and a whole array's)",
    find: String.raw`delete e.arrays[r][n])}function Ge(e,t){let n=Y(e,t);e.arrayElementCount-=Object.keys(e.arrays[n]??{}).length,delete e.arrays[n]}`,
    replace: String.raw`delete e.arrays[r][n],e.sa?.[r]?.delete(n))}function Ge(e,t){let n=Y(e,t);e.arrayElementCount-=Object.keys(e.arrays[n]??{}).length,delete e.arrays[n],e.sa&&delete e.sa[n]}`,
  },
  {
    why: "sub() and gsub() change an array element they are given (sub(/1/, \"X\", a[1])); just-bash changed $0 instead",
    find: String.raw`e.type==="field"?` + "`$${Math.floor(F(await t.evalExpr(e.index)))}`" + String.raw`:"$0":"$0"}function Le(e,t){if(e==="$0")`,
    replace:
      String.raw`e.type==="field"?` +
      "`$${Math.floor(F(await t.evalExpr(e.index)))}`" +
      String.raw`:e.type==="array_access"?{a:e.array,k:v(await t.evalExpr(e.key))}:"$0":"$0"}function Le(e,t){if(typeof e=="object")return L(ae(t,e.a,e.k));if(e==="$0")`,
  },
  {
    why: "(sub and gsub on an array element: the result is stored in the element)",
    find: String.raw`function Te(e,t,n){if(e==="$0")`,
    replace:
      // a variable or element sub() or gsub() changed holds a string from then on (x = $1; sub(/1/, "1", x); x < $2 compares text)
      String.raw`function Qm(t,a){typeof a=="object"?((t.sa??={})[Y(t,a.a)]??=new Set).add(a.k):a[0]!=="$"&&((t.st??={})[a]=1)}` +
      String.raw`function Te(e,t,n){if(typeof e=="object")return ye(n,e.a,e.k,t);if(e==="$0")`,
  },
  {
    why: "(sub: a variable or element it changed holds a string)",
    find: String.raw`c=te(o,l,u=>u===1,u=>Pe(s,u[0],_(t)),_(t));return Te(a,c.value,t),c.replacements}catch(l){return z(l),0}`,
    replace: String.raw`c=te(o,l,u=>u===1,u=>Pe(s,u[0],_(t)),_(t),t);return Te(a,c.value,t),c.replacements>0&&Qm(t,a),c.replacements}catch(l){return Zrz(l),z(l),0}`,
  },
  {
    why: "(gsub: a variable or element it changed holds a string)",
    find: String.raw`c=te(o,l,()=>!0,u=>Pe(s,u[0],_(t)),_(t));return Te(a,c.value,t),c.replacements}catch(l){return z(l),0}`,
    replace: String.raw`c=te(o,l,()=>!0,u=>Pe(s,u[0],_(t)),_(t),t);return Te(a,c.value,t),c.replacements>0&&Qm(t,a),c.replacements}catch(l){return Zrz(l),z(l),0}`,
  },
  {
    why:
      "a value that looks like a number is true when its number is not zero (a field 0.0 or -0 is false, as in gawk); other text is true when not empty. " +
      'gawk would also count a string constant "0.0" true; the docs shell does not tell a field from a constant here',
    find: 'function P(e){return typeof e=="number"?e!==0:!(e===""||e==="0")}',
    replace: 'function P(e){return typeof e=="number"?e!==0:me(e)?b(e)!==0:e!==""}',
  },
  {
    why: "IGNORECASE: when it is true, string comparisons ignore case (the regexes do through O, index() below), as in gawk",
    find: "let a=v(e),o=v(t);switch(n){",
    replace: "let a=v(e),o=v(t);Iq&&(a=Lq(a),o=Lq(o));switch(n){",
  },
  {
    why: "(IGNORECASE: index() ignores case too)",
    find: "a=r.indexOf(s);return a===-1?0:a+1}",
    replace: "a=Iq?Lq(r).indexOf(Lq(s)):r.indexOf(s);return a===-1?0:a+1}",
  },
  {
    why: 'a string\'s \\xHH escape is a byte: UTF-8 bytes make their character ("\\xc3\\xa9" is é), as in gawk (AWK_BYTES)',
    find: String.raw`a.length>0?r+=String.fromCharCode(parseInt(a,16)):r+="x";break}`,
    replace: String.raw`a.length>0?r+=String.fromCharCode(57344+parseInt(a,16)):r+="x";break}`,
  },
  {
    why: '(a string\'s \\ddd escape is a byte too: "\\303\\251" is é)',
    find: String.raw`r+=String.fromCharCode(parseInt(a,8))}else r+=s}`,
    replace: String.raw`r+=String.fromCharCode(57344+(parseInt(a,8)&255))}else r+=s}`,
  },
  {
    why: "(escaped bytes: read back when the string ends)",
    find: String.raw`return this.peek()==='"'&&this.advance(),{type:i.STRING,value:r,line:t,column:n}}`,
    replace: String.raw`return this.peek()==='"'&&this.advance(),{type:i.STRING,value:Qu(r),line:t,column:n}}`,
  },
  {
    why: "a regex literal's \\ddd and \\xHH escapes are bytes as a string's are (issue 25, F3): gawk replaces them before it reads the regex, so UTF-8 bytes make their character (sub(/^\\357\\273\\277/, \"\") strips a byte order mark, /\\xc3\\xa9+/ repeats é), another byte matches that byte of the input, and what they make is raw regex text (/\\x2e/ is any character, as in gawk 5.2); just-bash handed them to the regex engine, where \\xc3 was U+00C3 and \\357 no match",
    find: String.raw`return this.peek()==="/"&&this.advance(),r=qt(r),{type:i.REGEX,value:r,line:t,column:n}}`,
    replace: String.raw`return this.peek()==="/"&&this.advance(),r=qt(r.includes("\\")?Qu(r.replace(/\\(\\|[0-7]{1,3}|x[0-9a-fA-F]{1,2})/g,(m,e)=>e==="\\"?m:String.fromCharCode(57344+(e[0]==="x"?parseInt(e.slice(1),16):parseInt(e,8)&255)))):r),{type:i.REGEX,value:r,line:t,column:n}}`,
  },
  {
    why:
      "division by zero is gawk's fatal error (exit 2, the output so far kept; with the file and record once input is read), not 0: " +
      "`division by zero attempted`, `in `%'` for %, `in `/='` for /= (gawk reports a constant 1/0 when it parses the program; the docs shell when it runs it)",
    find: "let a=b(r),o=b(s);return ke(a,o,n)}",
    replace: "let a=b(r),o=b(s);if(o===0&&(n===\"/\"||n===\"%\"))Qd(e,n===\"%\"?\" in `%'\":\"\");return ke(a,o,n)}" +
      "function Qd(e,w){throw new Error(`cmd. line:1: ${e.NR>0?`(FILENAME=${e.FILENAME||\"-\"} FNR=${e.FNR}) `:\"\"}fatal: division by zero attempted${w}`)}",
  },
  {
    why: "(division by zero in /= and %=)",
    find: String.raw`case"/=":a=c!==0?l/c:0;break;case"%=":a=c!==0?l%c:0;break;`,
    replace: String.raw`case"/=":c===0&&Qd(e," in ` + "`/='" + String.raw`");a=l/c;break;case"%=":c===0&&Qd(e," in ` + "`%='" + String.raw`");a=l%c;break;`,
  },
  {
    why: "(what was written to /dev/stderr comes before an error's message)",
    find: "p=m instanceof w?w.EXIT_CODE:2;return{stdout:T.getOutput(),stderr:`awk: ${y}\n`,exitCode:p}",
    replace: "p=m instanceof w?w.EXIT_CODE:2;return{stdout:T.getOutput(),stderr:(A.wq??\"\")+`awk: ${y}\n`,exitCode:p}",
  },
  {
    why: "an input file that does not exist is gawk's fatal error after the output of the files before it (exit 2; gawk 5.2 names the place `cmd. line:1:` only once a BEGIN rule or a record has run: `awk '{print}' /nope` has none), with the reason the view gives (a path through a file, `/a.mdx/.`, is `Not a directory`); a folder is skipped with gawk's warning",
    find: "return{stdout:\"\",stderr:`awk: ${g}: No such file or directory\n`,exitCode:1}}",
    replace:
      "if((await t.fs.exists(t.fs.resolvePath(t.cwd,g)))&&(await t.fs.stat(t.fs.resolvePath(t.cwd,g))).isDirectory){A.wq=(A.wq??\"\")+`awk: warning: command line argument \\`${g}' is a directory: skipped\n`;continue}" +
      "return{stdout:T.getOutput(),stderr:(A.wq??\"\")+`awk: ${A.NR>0||f.rules.some(m=>m.pattern?.type===\"begin\")?\"cmd. line:1: \":\"\"}fatal: cannot open file \\`${g}' for reading: ${await t.fs.stat(t.fs.resolvePath(t.cwd,g)).then(()=>\"No such file or directory\",q=>q?.code===\"ENOTDIR\"?\"Not a directory\":\"No such file or directory\")}\n`,exitCode:2}}",
  },
  {
    why: "print and printf to \"/dev/stdout\" (or \"-\") and \"/dev/stderr\" write to the command's output and error streams, as in gawk; other files stay refused (read-only)",
    find: String.raw`let a=v(await S(e,"redirection filename evaluation",()=>E(e,n))),o=s.resolvePath(e.cwd,a);`,
    replace: String.raw`let a=v(await S(e,"redirection filename evaluation",()=>E(e,n)));if(a==="/dev/stdout"||a==="-"){e.output+=r,we(e);return}if(a==="/dev/stderr"){e.wq=(e.wq??"")+r;return}let o=s.resolvePath(e.cwd,a);`,
  },
  {
    why: "(what was written to /dev/stderr and the warnings, in the command's error stream)",
    find: String.raw`A.shouldExit)return await n("END execution after BEGIN exit",()=>T.executeEnd()),{stdout:T.getOutput(),stderr:"",exitCode:T.getExitCode()};if(!he&&!W)return{stdout:T.getOutput(),stderr:"",exitCode:T.getExitCode()};`,
    replace: String.raw`A.shouldExit)return await n("END execution after BEGIN exit",()=>T.executeEnd()),{stdout:T.getOutput(),stderr:A.wq??"",exitCode:T.getExitCode()};if(!he&&!W)return{stdout:T.getOutput(),stderr:A.wq??"",exitCode:T.getExitCode()};`,
  },
  {
    why: "(the same at the end of the input)",
    find: String.raw`return await n("END execution",()=>T.executeEnd()),{stdout:T.getOutput(),stderr:"",exitCode:T.getExitCode()}}`,
    replace: String.raw`return await n("END execution",()=>T.executeEnd()),{stdout:T.getOutput(),stderr:A.wq??"",exitCode:T.getExitCode()}}`,
  },
  {
    why: "printf %c takes a width and the - flag (%-3c pads after); a number, or a value that looks like one (a field 66), is the character of that code point, other text its first character (an empty one NUL), as in gawk; gawk would print a string constant \"66\" as 6",
    find: String.raw`case"c":{c(typeof y=="number"?String.fromCharCode(y):String(y??"").charAt(0)||""),A===void 0&&r++;break}`,
    replace: String.raw`case"c":{typeof y=="string"&&y!==""&&me(y)&&(y=b(y));let q=typeof y=="number"?(y>=0&&y<=1114111?String.fromCodePoint(Math.trunc(y)):""):[...String(y??"")][0]??"\0",z=k?parseInt(k,10)-[...q].length:0;z>0&&(q=f.includes("-")?q+" ".repeat(z):" ".repeat(z)+q),c(q),A===void 0&&r++;break}`,
  },
  {
    why: "asort() and asorti() sort an array's values or indices into elements 1..n (gawk); just-bash had neither and returned nothing (AWK_ASORT)",
    find: String.raw`["gensub",at],`,
    replace: String.raw`["gensub",at],["asort",(e,t,n)=>Qa(e,t,n,!1)],["asorti",(e,t,n)=>Qa(e,t,n,!0)],`,
  },
  {
    why: "printf's \\u escape of a lone surrogate writes its three bytes, as bash (printf '\\udcff' is ed b3 bf; just-bash made the placeholder of the byte ff, so the escape forged a byte) (SURROGATE_BYTES)",
    find: String.raw`i?(n+=String.fromCodePoint(parseInt(i,16)),r=t):(n+="\\u",r+=2)`,
    replace: String.raw`i?(n+=${SURROGATE_BYTES}(parseInt(i,16)),r=t):(n+="\\u",r+=2)`,
  },
  {
    why: "(printf %b's and the format's shared escapes: \\u)",
    find: String.raw`l?(n+=String.fromCodePoint(parseInt(l,16)),e=i):(n+="\\u",e+=2)`,
    replace: String.raw`l?(n+=${SURROGATE_BYTES}(parseInt(l,16)),e=i):(n+="\\u",e+=2)`,
  },
  {
    why: "(the same: \\U)",
    find: String.raw`l?(n+=String.fromCodePoint(parseInt(l,16)),e=i):(n+="\\U",e+=2)`,
    replace: String.raw`l?(n+=${SURROGATE_BYTES}(parseInt(l,16)),e=i):(n+="\\U",e+=2)`,
  },
  {
    why: "(echo -e: \\u)",
    find: String.raw`let l=parseInt(a,16);s+=String.fromCodePoint(l),e=t}`,
    replace: String.raw`let l=parseInt(a,16);s+=${SURROGATE_BYTES}(l),e=t}`,
  },
  {
    why: "(echo -e: \\U)",
    find: String.raw`let l=parseInt(a,16);try{s+=String.fromCodePoint(l)}`,
    replace: String.raw`let l=parseInt(a,16);try{s+=${SURROGATE_BYTES}(l)}`,
  },
  {
    why: "($'...': \\u and \\U) as bash: \\u takes one to four hex digits and \\U one to eight (just-bash read four characters for \\u, so $'\\ue9x' lost the x, and had no \\U: $'\\U1F600' stayed text); a lone surrogate is its three bytes (SURROGATE_BYTES), a code point past U+10FFFF bash's longer UTF-8 form (bytes), past 0x7FFFFFFF nothing; NUL ends the $'...' string as \\0 and \\x00 do ($'a\\u0000b'c is ac)",
    find: String.raw`case"u":{let a=t.slice(s+2,s+6),l=parseInt(a,16);Number.isNaN(l)?(r+="\\u",s+=2):(r+=String.fromCharCode(l),s+=6);break}`,
    replace: String.raw`case"u":case"U":{let m=t[s+1]==="u"?4:8,h=/^[0-9a-fA-F]+/.exec(t.slice(s+2,s+2+m));if(h===null){r+="\\"+t[s+1],s+=2;break}s+=2+h[0].length;let q=parseInt(h[0],16);if(q===0){r+=String.fromCharCode(0);break}if(q>2147483647)break;if(q<=1114111){r+=${SURROGATE_BYTES}(q);break}let b=q<2097152?[240|q>>18,128|q>>12&63,128|q>>6&63,128|q&63]:q<67108864?[248|q>>24,128|q>>18&63,128|q>>12&63,128|q>>6&63,128|q&63]:[252|q>>30,128|q>>24&63,128|q>>18&63,128|q>>12&63,128|q>>6&63,128|q&63];for(let c of b)r+=String.fromCharCode(56320+c);break}`,
  },
  {
    why: "printf %q backslash-quotes the characters bash 5.2 does (shquote.c): , ] ^ too, # and ~ only as the first character, = and % never (just-bash quoted = % and every # ~, and left , ] ^ bare)",
    find: "let o=\"\";for(let i of e)\" \t|&;<>()$`\\\\\\\"'*?[#~=%!{}\".includes(i)?o+=`\\\\${i}`:o+=i;return o}",
    replace: "let o=\"\",f=!0;for(let i of e)\" \t|&;<>()$`\\\\\\\"'*?[]^,!{}\".includes(i)||f&&\"#~\".includes(i)?o+=`\\\\${i}`:o+=i,f=!1;return o}",
  },
  {
    why: "(printf %q: the same set where it sizes the output against the limit)",
    find: "r+=E(i)+(\" \t|&;<>()$`\\\\\\\"'*?[#~=%!{}\".includes(i)?1:0)",
    replace: "r+=E(i)+(\" \t|&;<>()$`\\\\\\\"'*?[]^,!{}\".includes(i)||\"#~\".includes(i)?1:0)",
  },
  {
    why: "read drops NUL bytes from what it reads, as bash does (read -r v < <(printf 'a\\0b\\n') sets ab; just-bash kept the NUL)",
    find: String.raw`A=_=>{let T=B(_);if(T>e.limits.maxStringLength-k)`,
    replace: String.raw`A=_=>{if(_==="\0")return;let T=B(_);if(T>e.limits.maxStringLength-k)`,
  },
  {
    why: "(the same for read -n N: a NUL is not one of the N characters, as in bash; and N counts characters, a UTF-8 character's bytes one (read -n 2 <<< héllo is hé in C.UTF-8; it cut é in two), adversary round 23)",
    find: String.raw`A(ae),T+=2,_++,N=T}else A(oe),T++,_++,N=T}P=_>=a||F`,
    replace: String.raw`A(ae),T+=2,_++,N=T}else{if(oe<"\x80")oe!=="\0"&&(A(oe),_++),T++;else{let q=Qrl(b,T);for(let j=0;j<q;j++)A(b[T+j]);_++,T+=q}N=T}}P=_>=a||F`,
  },
  {
    why: "jq reads the JSON of its input with each escaped lone surrogate U+FFFD, as jq 1.6 (\"\\udcc3\\udca9\" is two U+FFFD; just-bash kept the surrogates, which the shell wrote as the bytes c3 a9: forged text) (JSON_SURROGATES)",
    find: String.raw`function R(i,t,d){return JSON.parse(ne(i.slice(t,d)))}`,
    replace: String.raw`function R(i,t,d){return JSON.parse(${JSON_SURROGATES}(ne(i.slice(t,d))))}`,
  },
  {
    why: "(jq's fromjson the same)",
    find: String.raw`try{return[Te(JSON.parse(e),`,
    replace: String.raw`try{return[Te(JSON.parse(${JSON_SURROGATES}(e)),`,
  },
  {
    why: "(yq's JSON input the same)",
    find: String.raw`case"json":return i(JSON.parse(n));`,
    replace: String.raw`case"json":return i(JSON.parse(${JSON_SURROGATES}(n)));`,
  },
  {
    why: "(xan's JSON input the same)",
    find: String.raw`let o=Ge(JSON.parse(s.trim())`,
    replace: String.raw`let o=Ge(JSON.parse(${JSON_SURROGATES}(s.trim()))`,
  },
  {
    why: "a jq filter's string literal reads \\uXXXX (a pair as one character, a lone low surrogate U+FFFD, a lone high one jq's error), \\b, \\f and \\/ as jq 1.6 does (it hands the escapes to its JSON parser); just-bash dropped the backslash (\"\\u00e9\" was u00e9)",
    find: String.raw`case"(":h+="\\(",a=1;break;default:h+=y}`,
    replace: String.raw`case"(":h+="\\(",a=1;break;case"b":h+="\b";break;case"f":h+="\f";break;case"u":{let x=e.slice(t,t+4);if(!/^[0-9a-fA-F]{4}$/.test(x)){h+="u";break}t+=4;let q=parseInt(x,16);if(q>=55296&&q<=56319){let w=/^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(e.slice(t,t+6));if(w===null)throw new Error("Invalid \\uXXXX\\uXXXX surrogate pair escape");t+=6,h+=String.fromCharCode(q,parseInt(w[1],16))}else h+=q>=56320&&q<=57343?"\ufffd":String.fromCharCode(q);break}default:h+=y}`,
  },
  {
    why: "tr works on bytes, as GNU tr 9.1 does in C.UTF-8: its input is read as bytes (`tr é e` turns `é` into `ee`, `tr -d '\\303'` takes half of it away, `tr 😀 x` writes four x; just-bash read characters), issue 25, adversary round 26",
    find: String.raw`if(n.stdin.length>l)throw new f(` + "`tr: input size limit exceeded (${l} bytes)`" + String.raw`,"string_length");let y=T(n.stdin);`,
    replace: String.raw`if(n.stdin.length>l)throw new f(` + "`tr: input size limit exceeded (${l} bytes)`" + String.raw`,"string_length");let y=/[^\0-\xff]/.test(n.stdin)?Buffer.from(n.stdin,"utf8").toString("latin1"):n.stdin;`,
  },
  {
    why: "(its sets too, each character its UTF-8 bytes and a byte an escape made, held as the shell holds it, that byte)",
    find: String.raw`h=F(a[0],l,d,r),e=a.length>1?F(a[1],l,d,r):""`,
    replace: String.raw`let Qtb=q=>q.replace(/[^\0-\x7f]/gu,c=>{let k=c.charCodeAt(0);return c.length===1&&k>=56448&&k<=56575?String.fromCharCode(k-56320):Buffer.from(c,"utf8").toString("latin1")});h=F(Qtb(a[0]),l,d,r),e=a.length>1?F(Qtb(a[1]),l,d,r):""`,
  },
  {
    why: "(and what it writes is those bytes)",
    find: String.raw`return{stdout:E,stderr:"",exitCode:0}}},W={name:"tr"`,
    replace: String.raw`return{stdout:E,stdoutKind:"bytes",stderr:"",exitCode:0}}},W={name:"tr"`,
  },
  // jq's strings in code points, matches, sub/gsub, walk and shared values (just-bash-jq-char-patches.mjs).
  ...JQ_CHAR_PATCHES,
  ...AWK_CHAR_PATCHES,
  // jq's generators run only as far as needed, input/inputs, counted regex searches (just-bash-jq-lazy-patches.mjs).
  ...JQ_LAZY_PATCHES,
  ...JQ_INPUT_PATCHES,
  ...RE2_SCAN_PATCHES,
  // jq's run-time type errors, in jq 1.6's words (just-bash-jq-error-patches.mjs).
  ...JQ_ERROR_PATCHES,
  // awk's regex searches charged to the work budget (just-bash-awk-regex-patches.mjs).
  ...AWK_REGEX_PATCHES,
  {
    why: "an input redirect from a path through a file (cat < /a.mdx/., wc -l < /a.mdx/) says Not a directory, as bash does and as the rest of the shell does (SiteView.resolve's ENOTDIR rule), and from a folder Is a directory (bash opens it and the command's read fails: `cat: -: Is a directory`; here the shell says it, the command does not run); just-bash said No such file or directory for every failure to open it (issue 25)",
    find: String.raw`try{c=await vn(e.fs,A),u=-1,m(S,{kind:"input",content:c})}catch{return p(L("",` + "`bash: ${v}: No such file or directory\n`" + String.raw`,1),g)}`,
    replace: String.raw`try{c=await vn(e.fs,A),u=-1,m(S,{kind:"input",content:c})}catch(q){return p(L("",` + "`bash: ${v}: ${q?.code===\"ENOTDIR\"?\"Not a directory\":q?.code===\"EISDIR\"?\"Is a directory\":\"No such file or directory\"}\n`" + String.raw`,1),g)}`,
  },
  {
    why: "a numeric brace range stops at the limit the shell is given (executionLimits.maxBraceExpansionResults, LIMITS.shell.maxBraceRangeWords) rather than at a fixed 10,000 words: {1..20000} expands whole, as in bash (issue 25); a range past the limit is refused before it runs (brace-ranges.ts)",
    find: "for(let d=e,p=0;d<=t&&p<dr&&Jr(l,f(d),i,u);d+=a,p++);else for(let d=e,p=0;d>=t&&p<dr&&Jr(l,f(d),i,u);d-=a,p++);return l}",
    replace: "for(let d=e,p=0;d<=t&&p<i.maxResults&&Jr(l,f(d),i,u);d+=a,p++);else for(let d=e,p=0;d>=t&&p<i.maxResults&&Jr(l,f(d),i,u);d-=a,p++);return l}",
  },
  {
    why: "(and brace expansion's own count of operations, a word's ranges and products together, for the whole call, stops at ten times that limit rather than at it: `echo {1..100000}` counted 100,001 and failed with `brace_operations work limit exceeded`, and so did ten `echo {1..10000}` in one line; the work budget still charges what it writes)",
    find: String.raw`consumeLimited("brace_operations",1,Math.min(qc,e.limits.maxBraceExpansionResults),"brace expansion")`,
    replace: String.raw`consumeLimited("brace_operations",1,Math.max(qc,e.limits.maxBraceExpansionResults*10),"brace expansion")`,
  },
  {
    why: "$(< FILE) that cannot read its file says why on stderr, as bash 5.2 does (x=$(< /a.mdx/.) is `bash: /a.mdx/.: Not a directory`, $(< /nope) `bash: /nope: No such file or directory`, status 1), and a folder is read as empty with status 0 as in bash; just-bash gave every failure the empty text and status 1 silently (issue 25)",
    find: String.raw`case"CommandSubstitution":{let s=Wl(t.body);if(s)try{let p=await se(e,s.target),h=p.startsWith("/")?p:` + "`${e.state.cwd}/${p}`" + String.raw`,m=await e.fs.readFile(h);e.state.lastExitCode=0,e.state.env.set("?","0");let w=m.replace(/\n+$/,"");return Kt(w,e.limits.maxStringLength,"command substitution"),w}catch(p){if(p instanceof x)throw p;return e.state.lastExitCode=1,e.state.env.set("?","1"),""}`,
    replace: String.raw`case"CommandSubstitution":{let s=Wl(t.body),q;if(s)try{let p=q=await se(e,s.target),h=p.startsWith("/")?p:` + "`${e.state.cwd}/${p}`" + String.raw`,m=await e.fs.readFile(h);e.state.lastExitCode=0,e.state.env.set("?","0");let w=m.replace(/\n+$/,"");return Kt(w,e.limits.maxStringLength,"command substitution"),w}catch(p){if(p instanceof x)throw p;let d=p?.code==="EISDIR";q!==void 0&&!d&&(e.state.expansionStderr=(e.state.expansionStderr||"")+` + "`bash: ${q}: ${p?.code===\"ENOTDIR\"?\"Not a directory\":\"No such file or directory\"}\\n`" + String.raw`);return e.state.lastExitCode=d?0:1,e.state.env.set("?",d?"0":"1"),""}`,
  },
  {
    why: "(the same for exec N< FILE and <>: a path through a file is Not a directory, and <> does not try to create it)",
    find: "async function yo(e,t,n){let r=e.fs.resolvePath(e.state.cwd,t);try{let s=await e.fs.readFile(r);return n?{entry:{kind:\"readwrite\",path:r,position:0,content:s}}:{entry:{kind:\"input\",content:s}}}catch{if(!n)return{error:L(\"\",`bash: ${t}: No such file or directory\n`,1)};",
    replace: "async function yo(e,t,n){let r=e.fs.resolvePath(e.state.cwd,t);try{let s=await e.fs.readFile(r);return n?{entry:{kind:\"readwrite\",path:r,position:0,content:s}}:{entry:{kind:\"input\",content:s}}}catch(q){if(!n||q?.code===\"ENOTDIR\")return{error:L(\"\",`bash: ${t}: ${q?.code===\"ENOTDIR\"?\"Not a directory\":\"No such file or directory\"}\n`,1)};",
  },
  {
    why: "a command that is not a builtin (just-bash's echo, cat, seq... and ours) is charged what starting it costs (bash:run:NAME, BASH_STEP.run in work-budget.ts): just-bash builds a revocable copy of the context, defence wrappers, a deadline race and a PATH lookup for each, ~0.3 ms of CPU where a builtin's pass is ~40 µs, so a loop piping into a command (for i in $(seq 100000); do echo $i | cat; done) ended at the 5 s CPU limit, by the machine's speed, long before its counted steps reached the work limit (issue 25)",
    find: String.raw`await a(c.path,n,r);let{cmd:u,path:f}=c;`,
    replace: String.raw`await a(c.path,n,r);let{cmd:u,path:f}=c;i.coverage?.hit("bash:run:"+t);`,
  },
  {
    why: "with a coverage writer (the work budget) each run of one of just-bash's own commands imported its flag-coverage module again (a dynamic import() per command: a module-map lookup and a promise, and through the module hooks a message to the loader's thread, ~0.4 ms under tsx); it is imported once and kept (issue 25)",
    find: String.raw`let{emitFlagCoverage:s}=await import("./chunks/flag-coverage-I6UJUKQ4.js");s(n.coverage,e.name,t)`,
    replace: String.raw`(_r.flagCoverage??=await import("./chunks/flag-coverage-I6UJUKQ4.js")).emitFlagCoverage(n.coverage,e.name,t)`,
  },
];

/** Whether a path is one of just-bash's prebuilt bundle files the patches look in. */
export const JUST_BASH_BUNDLE_FILE = /[\\/]just-bash[\\/]dist[\\/]bundle[\\/](index|chunks[\\/][^\\/]+)\.js$/;

/** Whether a path is a file `patchJustBash` corrects: just-bash's bundle, or the npm re2js (re2js-work-patches.mjs). */
export const PATCHED_FILE = new RegExp(`${JUST_BASH_BUNDLE_FILE.source}|${RE2JS_FILE.source}`);

/**
 * The text with every patch whose `find` it holds applied; `applied` collects the patches used.
 * A `find` that occurs more than once in one file is an error (the replacement would be ambiguous).
 */
export function patchJustBash(text, applied = new Set()) {
  let out = text;
  for (const p of [...JUST_BASH_PATCHES, ...RE2JS_PATCHES]) {
    const at = out.indexOf(p.find);
    if (at === -1) continue;
    if (out.indexOf(p.find, at + 1) !== -1) throw new Error(`just-bash patch "${p.why}": its text occurs more than once in one file`);
    out = out.slice(0, at) + p.replace + out.slice(at + p.find.length);
    applied.add(p);
  }
  return out;
}
