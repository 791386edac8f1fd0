// Exact-text corrections to just-bash 3.4.2's printf, read -N and $'...' (its prebuilt bundle) where bash 5.2's
// differ in the C.UTF-8 locale (issue 25, adversary round 23's F4). Kept apart from just-bash-patches.mjs
// (which spreads these in); the same rules as there: each `find` occurs exactly once in
// just-bash's dist/bundle.

/**
 * PRINTF_BYTES_WIDTH: bash's printf counts a `%s`/`%b`/`%q` width and precision in bytes (it
 * hands them to the C library's printf): `%.3s` of `héllo` is `hé`, `%5s` of `é` pads with three
 * spaces, and a precision may cut a character, leaving its first bytes (`%.1s` of `é` is the byte
 * c3, held as the placeholder U+DCC3 by the one byte rule, BYTE_TEXT). just-bash counted UTF-16
 * units. A held byte (U+DC80-U+DCFF) is one byte. Kb0 is just-bash's own padder, kept for its
 * size limits.
 * PRINTF_TIES: `%f` and `%e` round an exact half to even, as glibc does (`%.0f` of 0.5 is 0, of 2.5
 * is 2; `%.1e` of 1.25 is 1.2e+00); JS's toFixed and toExponential round it up. A tie is read off
 * the value's exact decimal digits (toFixed(100)), as the awk patch for `%f` does. `%f` of a value
 * from 1e21 up prints all its digits (`%.0f` of 1e300 is 301 digits) where toFixed gave `1e+300`.
 */
const PRINTF_BYTES_WIDTH = String.raw`function Kbl(c){let z=c.codePointAt(0);return z<128||z>=56448&&z<=56575?1:z<2048?2:z<65536?3:4}function k(t,a,n,e){let q=t;if(n>=0){let o="",m=0;for(let c of t){let L=Kbl(c);if(m+L>n){if(L>1){let B=Buffer.from(c,"utf8");for(let j=0;j<n-m&&j<B.length;j++)o+=String.fromCharCode(56320+B[j])}break}o+=c,m+=L}q=o}let y=0;for(let c of q)y+=Kbl(c);let p=Math.abs(a)-y;return Kb0(q,p>0?(a<0?-1:1)*(q.length+p):0,-1,e)}`;
const PRINTF_TIES = String.raw`function Ktf(n,t){let s=n.toFixed(t),a=Math.abs(n);if(a>=1e21&&a<1/0)return(n<0?"-":"")+BigInt(a)+(t>0?"."+"0".repeat(t):"");if(a<1e21){let x=a.toFixed(100),i=x.indexOf("."),u=x.slice(0,t===0?i:i+1+t);/^50*$/.test(x.slice(i+1+t))&&Number(u.slice(-1))%2===0&&(s=(n<0?"-":"")+u)}return s}function Kte(n,t){let s=n.toExponential(t),a=Math.abs(n);if(a>0&&a<1e21&&t<=99){let x=a.toFixed(100),i=x.indexOf("."),D=x.slice(0,i)+x.slice(i+1),f=D.search(/[1-9]/),u=D.slice(f,f+t+1);u.length===t+1&&/^50*$/.test(D.slice(f+t+1))&&Number(u.slice(-1))%2===0&&(s=(n<0?"-":"")+u[0]+(t>0?"."+u.slice(1):"")+"e"+((i-f-1)<0?"-":"+")+Math.abs(i-f-1))}return s}`;

/** One correction each: the exact minified text, what replaces it, and why. */
export const PRINTF_PATCHES = [
  {
    why: "printf's %s, %b and %q width and precision count bytes as bash's do (PRINTF_BYTES_WIDTH): printf '%.3s|' héllo is hé|, printf '%5s|' é pads with three spaces; just-bash counted UTF-16 units; also %f and %e round an exact half to even as glibc (PRINTF_TIES)",
    find: String.raw`import{a as w,b as k,d as N}from"./chunk-6D3WD6YU.js";`,
    replace: `import{a as w,b as Kb0,d as N}from"./chunk-6D3WD6YU.js";${PRINTF_BYTES_WIDTH}${PRINTF_TIES}`,
  },
  {
    why: "(printf %f: an exact half rounds to even: printf '%.0f %.2f' 0.5 0.125 is 0 0.12)",
    find: String.raw`a==="f"?(s=n.toFixed(t),`,
    replace: String.raw`a==="f"?(s=Ktf(n,t),`,
  },
  {
    why: "(printf %e the same: printf '%.0e' 2.5 is 2e+00)",
    find: String.raw`a==="e"?(s=n.toExponential(t),`,
    replace: String.raw`a==="e"?(s=Kte(n,t),`,
  },
  {
    why: "$'...' ends at its first NUL as bash's (its strings are C strings): $'a\\0b' and $'a\\x00b' are a, $'a\\0b'c is ac; just-bash kept the NUL and what follows (kept apart from the $'...' byte patches in just-bash-patches.mjs: this wraps the whole parser)",
    find: String.raw`function ul(e,t,n){let r="",s=n;`,
    replace: String.raw`function ul(e,t,n){let q=Kul(e,t,n),v=q.part.value;return typeof v=="string"&&v.includes("\0")&&(q.part={...q.part,value:v.slice(0,v.indexOf("\0"))}),q}function Kul(e,t,n){let r="",s=n;`,
  },
  {
    why: "printf %q takes a precision as bash 5.2 does, in bytes of the quoted text (printf '%.2q|' abc is ab|, '%5.2q|' pads it); just-bash matched only %Nq and %-Nq and printed the whole quoted text for any other; and %Q is bash 5.2's %q whose precision cuts the argument before it is quoted (printf '%.3Q' 'a b c' is a\\ b, '%.1Q' é is $'\\303'), which just-bash refused as an invalid format character (issue 25, adversary F4 and F5)",
    find: String.raw`function O(e,l,n){let r=y(l,n),o=e.match(/^%(-?)(\d*)q$/);if(!o)return r;let i=o[1]==="-",t=o[2]?parseInt(o[2],10):0;return k(r,i?-t:t,-1,n)}`,
    replace: String.raw`function O(e,l,n,Q){let o=e.match(/^%([-+ #0']*)(\d*)(?:\.(\d*))?[qQ]$/);if(!o)return y(l,n);let p=o[3]!==void 0?parseInt(o[3]||"0",10):-1,r=Q&&p>=0?y(k(l,0,p,n),n):y(l,n),t=o[2]?parseInt(o[2],10):0;return k(r,o[1].includes("-")?-t:t,Q?-1:p,n)}`,
  },
  {
    why: "(printf %Q: the conversion itself)",
    find: String.raw`case"q":return{value:O(e,n,r),parseError:!1,parseErrMsg:""};`,
    replace: String.raw`case"q":return{value:O(e,n,r),parseError:!1,parseErrMsg:""};case"Q":return{value:O(e,n,r,!0),parseError:!1,parseErrMsg:""};`,
  },
  {
    why: "read -N N counts characters as bash's in C.UTF-8, a UTF-8 character's bytes one (read -N 2 x <<< héllo sets hé; just-bash took two bytes and cut é in two); too few characters is status 1 as before. And read -n N and -N N take a character as bash does over bytes that are not UTF-8 (mbrtowc byte by byte): the bytes of a sequence that has begun are read while it is incomplete, and the byte that makes it invalid is part of it (printf '\\303x' | read -n 1 v sets the two bytes c3 78, as bash; a cut \\342\\202 before x the three); a byte that starts nothing is one character. Qrl is that length, from a lead byte at t; before, the character ended before the byte that broke it",
    find: String.raw`if(l>=0){let _=Math.min(l,b.length);`,
    replace: String.raw`let Qrl=(b,t)=>{let c=b.charCodeAt(t),n=c>=194&&c<=223?1:c>=224&&c<=239?2:c>=240&&c<=244?3:0,i=1;for(;n>0&&t+i<b.length;n--){let d=b.charCodeAt(t+i),lo=128,hi=191;i===1&&(c===224?lo=160:c===237?hi=159:c===240?lo=144:c===244&&(hi=143));i++;if(d<lo||d>hi)break}return i};if(l>=0){let _=0,m=0;for(;_<b.length&&m<l;m++){let c=b.charCodeAt(_);_+=c<128?1:Qrl(b,_)}m<l&&(l=_+1);`,
  },
];
