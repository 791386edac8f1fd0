#!/usr/bin/env bash
# Fetch the external Mintlify sites of issue 24 at fixed commits into $1 (default /tmp/quality/sites),
# for `npx tsx bench/eval/external/run-external.ts <sites dir> <questions dir>`. Their text and the
# questions stay out of the repository.
# name repo commit subdir. Uses a local mirror under /work/.mirror when present, else clones from GitHub.
set -euo pipefail
out=${1:-/tmp/quality/sites}
mkdir -p "$out"
while read -r name repo commit sub; do
  [ -z "$name" ] && continue
  mirror=/work/.mirror/${repo/\//+}/repo
  if [ ! -d "$mirror" ]; then
    mirror=$(mktemp -d)/repo.git
    git clone --bare --filter=blob:none "https://github.com/$repo.git" "$mirror"
  fi
  rm -rf "${out:?}/$name" && mkdir -p "$out/$name"
  prefix=""; [ "$sub" = "." ] || prefix="$sub/"
  # Text files only: images may be absent from a partial mirror, and search never reads them.
  list=$(mktemp)
  git --git-dir="$mirror" ls-tree -r --name-only "$commit" -- "${prefix:-.}" | grep -E '\.(mdx|md|json|ya?ml)$' >"$list"
  GIT_INDEX_FILE=$(mktemp -u) git --git-dir="$mirror" --work-tree="$out/$name" checkout "$commit" --pathspec-from-file="$list" -- 2>/dev/null \
    || GIT_INDEX_FILE=$(mktemp -u) git --git-dir="$mirror" --work-tree="$out/$name" checkout "$commit" --pathspec-from-file="$list"
  rm -f "$list"
  if [ -n "$prefix" ]; then mv "$out/$name/$sub" "$out/$name.tmp" && rm -rf "${out:?}/$name" && mv "$out/$name.tmp" "$out/$name"; fi
  echo "$name: $repo@$commit ($sub)"
done <<'LIST'
crewai crewAIInc/crewAI f4731f5025f861c78e3af0487cc80bf5e7c64782 docs
tyk TykTechnologies/tyk-docs 95922c952e677f1b455f06028c04b4b7bb9e10bf .
firecrawl mendableai/firecrawl-docs 142b49850032ddb87f77a346a949d0a729244120 .
mem0 mem0ai/mem0 8d5b7865bd0521e75fe9ab1b260eeccc83f8a378 docs
dify langgenius/dify-docs 9d8344e72dffb71993ba9874ec762bb5d456ad0f .
LIST
