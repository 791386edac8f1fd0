#!/usr/bin/env bash
# Fetch the external Mintlify sites of issue 24 at fixed commits into $1 (default /tmp/quality/sites),
# for `npx tsx bench/eval/external/run-external.ts <sites dir> bench/eval/external/questions`. Their
# text stays out of the repository; the questions (our own wording) are in questions/.
# `fetch-sites.sh <dir> [name...]` fetches only the sites named. SITES=<file> reads the list from a file
# (same columns) instead: fetch-sites-unseen.txt holds sites kept out of every tuning round.
# name repo commit subdir. Uses a local mirror under /work/.mirror when present, else clones from GitHub.
set -euo pipefail
out=${1:-/tmp/quality/sites}
only=" ${*:2} "
mkdir -p "$out"
fetch_all() {
while read -r name repo commit sub; do
  [ -z "$name" ] && continue
  [[ "$name" == \#* ]] && continue
  [ "$only" = "  " ] || [[ "$only" == *" $name "* ]] || continue
  mirror=/work/.mirror/${repo/\//+}/repo
  # The fetch tool leaves a bare repository there, or a clone whose git directory is repo/.git.
  [ -d "$mirror/.git" ] && mirror=$mirror/.git
  if [ ! -d "$mirror" ]; then
    mirror=$(mktemp -d)/repo.git
    git clone --bare --filter=blob:none "https://github.com/$repo.git" "$mirror"
  fi
  rm -rf "${out:?}/$name" && mkdir -p "$out/$name"
  prefix=""; [ "$sub" = "." ] || prefix="$sub/"
  # Text files only: images may be absent from a partial mirror, and search never reads them.
  # Dot folders (.github, .cache) are not pages and some mirrors lack their blobs.
  list=$(mktemp)
  # A blob the partial mirror lacks (swipelux's 6.5 MB openapi.json) is left out: `check` then
  # reports the spec missing, which is true of the copy, and the rest of the site is searched.
  git --git-dir="$mirror" ls-tree -r "$commit" -- "${prefix:-.}" | awk -F'\t' '{split($1, a, " "); print a[3] " " $2}' \
    | git --git-dir="$mirror" cat-file --batch-check='%(objecttype) %(rest)' | sed -n 's/^blob //p' \
    | grep -E '\.(mdx|md|json|ya?ml)$' | grep -vE '(^|/)\.' >"$list"
  GIT_INDEX_FILE=$(mktemp -u) git --git-dir="$mirror" --work-tree="$out/$name" checkout "$commit" --pathspec-from-file="$list" -- 2>/dev/null \
    || GIT_INDEX_FILE=$(mktemp -u) git --git-dir="$mirror" --work-tree="$out/$name" checkout "$commit" --pathspec-from-file="$list"
  rm -f "$list"
  if [ -n "$prefix" ]; then mv "$out/$name/$sub" "$out/$name.tmp" && rm -rf "${out:?}/$name" && mv "$out/$name.tmp" "$out/$name"; fi
  echo "$name: $repo@$commit ($sub)"
done
}
if [ -n "${SITES:-}" ]; then fetch_all <"$SITES"; exit 0; fi
fetch_all <<'LIST'
crewai crewAIInc/crewAI f4731f5025f861c78e3af0487cc80bf5e7c64782 docs
tyk TykTechnologies/tyk-docs 95922c952e677f1b455f06028c04b4b7bb9e10bf .
firecrawl mendableai/firecrawl-docs 142b49850032ddb87f77a346a949d0a729244120 .
mem0 mem0ai/mem0 8d5b7865bd0521e75fe9ab1b260eeccc83f8a378 docs
dify langgenius/dify-docs 9d8344e72dffb71993ba9874ec762bb5d456ad0f .
mintlify mintlify/docs 3bbce7aa1abf66b19671bc398b9752d608fd0826 .
comfy Comfy-Org/docs ffb27fc2a2ea3860a9b12bb66716b91ad14dc997 .
karzoun KarzounApps/docs 1e12e4d44ed020b3f25f4d6310f2132efcb33457 .
firma Firma-esign/firma-docs 7abe480dccf00bcf29f6349f99b98219502aae34 .
dodo dodopayments/dodo-docs 2570212d81c954237bfb973d31780444da0f1e9e .
flipt flipt-io/docs d8b156f7db93dcc5d932dc276fb75482b3f07afa docs
scrapegraph ScrapeGraphAI/docs-mintlify 141db25dd966f6763914deba68b9e857be800841 .
baileys WhiskeySockets/docs 53e0ea6432c1e04ead098b1f1aa4032cc91d9c48 .
benzinga Benzinga/benzinga-docs ff7242324c9a3526db1624cb66b41d5be9819cd2 .
zylon zylon-ai/zylon-docs 666df07e29628a25f525f7e7159a943377296f36 .
salad SaladTechnologies/salad-cloud-docs 504c704a8828f7f489c46523dc9fae106e83245f .
lemondata hedging8563/lemondata-docs 48c458023f241850e942a49edd80a994f5ef2d06 .
ollama ollama/ollama fb30760996871fa9460115c753afd2c60d4ab0f7 docs
fishaudio fishaudio/docs 5783e097b2e8b7d773f99018fc5ea46edecb42cf .
swipelux swipelux/public-docs bb4b3f8f934916a33423dc0b12eb567693ec186c .
lago getlago/lago-doc 0cf60715b0dff8f4bb03c7253068f6fdbcac527d .
verify Verify-Group/docs 342a00ed7df71db0ad7d5a8515d6ad5ebd5f8e41 .
pipecat pipecat-ai/docs 1393c9d76927eaef55dd3d872ae51e37ace8f92e .
raydium raydium-io/raydium-docs-v1 127e3acf34444d62327a69bb380003578da31a9d .
sequence 0xsequence/docs 2e7df8544830c8e827a852b9aea680f02f291626 .
onyx onyx-dot-app/documentation 48a9c8f688ee5bd8ae55c4dbd7999079cf4f452f .
trigger triggerdotdev/trigger.dev b082e44389337dc6505d590737a6df70867cc8f4 docs
unstructured Unstructured-IO/docs 8905f62269dc99142ff19ecf5be4cdf52d294e4e .
story storyprotocol/docs 6e2f32b9bd8de15038c21a022b0b1d90a577d14e .
particle Particle-Network/particle-docs-mintlify 25186325eed10fe67798bcb59255f2d8977cf96c .
upstash upstash/docs ef0ce4387f723fa1d0bd49d29331a6ec61feb6df .
bolt bolt-builder/docs 506fe391982c0fd32765306d906a360bbc9b71b5 .
novu novuhq/docs c1cb9e416fc4856fefafc4397ffdb5ba4526dac1 .
browseruse browser-use/browser-use 6c24c9d8414e49d6a6ebf43a5df234bb1eb0c72e docs
continue continuedev/continue d0a3c0b626b5bebc3bef4742eec05a0242be0bab docs
formbricks formbricks/formbricks b66c1dd978af618a0e402bd3343b456bed68594c docs
dub dubinc/docs 3917ac3a15ac48e7256da3166cd598a42ef61332 .
meilisearch meilisearch/documentation 52a04d8aec7990caca1a57424e0a92b54ce5d0b5 .
alter alterhq/docs 7140003e13442757454665b2a68a00cfc69bb7ab .
aryn aryn-ai/docs 88820f021de3113b87bcd9c24eeeef278fda589c .
prefect PrefectHQ/prefect ce79dd3d6cfa2b7337265498210dbc4d25bcdc98 docs
mcp modelcontextprotocol/modelcontextprotocol b0f60ba5409db7a6582440a7b473cc0398890f15 docs
insforge InsForge/InsForge 268d79d274b07317ffb8ceb14d09485625910592 docs
hoppscotch hoppscotch/docs 97f922080b91990744c57ebbfad9bbb6b85d515f .
runpod runpod/docs a900806e253c4f8c16da27d1a4370e72456da4cb .
agno agno-agi/docs 402a4aa501a1890a7dbdd9066386e81905e112d9 .
polar polarsource/polar c6c3645e639ee8eeaa05aa0835cf8e39e330382f docs
trama trytrama/docs 5a79e4b4137723aea666d71b78b83de83e3fc530 .
paperzilla paperzilla-ai/docs 0b48411424274991f1fa267c7c4788f0be702667 .
fedapay fedapay/docs e189808dd97c44e7c72edb7a34d0fdb62c67e83d .
helius helius-labs/docs 3a53273e8a6052a8e981ec95c21954b5dd989cc8 .
nango NangoHQ/nango 2f4c0af671e2ca1c43dd4e78f3c369218bf3fc87 docs
LIST
