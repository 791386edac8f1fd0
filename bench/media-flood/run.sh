#!/bin/bash
# Issue 25: another client's MCP ping and tools/call (`ls /`) while one address floods a 45 MB
# video, conditional GETs (304) 8 at a time or plain GETs 16 at a time, for 12 s.
#   bench/media-flood/run.sh <checkout> <port> cond|get [duration_ms] [concurrency]
# Prints the flood's requests, the server's CPU (all threads) and RSS, and the victim's latencies.
set -e
W=$(cd "$1" && pwd); PORT=$2; MODE=$3; DUR=${4:-12000}; C=${5:-8}
HERE=$(cd "$(dirname "$0")" && pwd)
D=$(mktemp -d); mkdir -p $D/images
printf '{"name":"Media","navigation":{"groups":[{"group":"Start","pages":["index"]}]}}\n' > $D/docs.json
printf -- '---\ntitle: Home\n---\n\n![demo](/images/demo.mp4)\n' > $D/index.mdx
head -c 45000000 /dev/urandom > $D/images/demo.mp4
cd $D
nice -n 10 node $W/bin/svc-mcp.js serve --http --port $PORT --state $(mktemp -d) >/dev/null 2>&1 & P=$!
for i in $(seq 120); do curl -s -o /dev/null http://127.0.0.1:$PORT/.well-known/mcp && break; sleep 0.5; done
cd $HERE
DONE=$(mktemp -u); READY=$(mktemp -u)
node --import tsx flood.ts http://127.0.0.1:$PORT/images/demo.mp4 $P $DUR $C $MODE $DONE $READY & F=$!
node --import tsx victim.ts http://127.0.0.1:$PORT/mcp $DONE $READY
wait $F
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
kill $P; wait $P 2>/dev/null || true; rm -rf $DONE $READY $D
