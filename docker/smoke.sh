#!/usr/bin/env bash
# Smoke test of the servers installation in docker/docker-compose.yml, for machines with Docker:
#
#   1. docker compose up (EventStoreDB, MongoDB replica set, Redis, api, worker), built afresh;
#   2. waits for every service's health (the api's /health answers 200 once its stores answer);
#   3. runs the port contract suites and `npm run test:servers` (the whole API suite) from this
#      checkout against the compose servers, through the ports compose publishes on 127.0.0.1;
#   4. over HTTP against the compose api: an organization and two accounts made with the CLI in
#      the api container, then send, read, edit, flag, and a scheduled message 5 s out that the
#      worker delivers;
#   5. docker compose down (with -v: the volumes too, unless KEEP_VOLUMES=1).
#
# It CANNOT RUN in the environment this project is developed in (no Docker daemon there): it was
# written against docker/docker-compose.yml as committed (service names eventstoredb, mongo, redis,
# api, worker; api published on 9991; NODE_ENV=production, so no development organization) and
# has not been run as a whole. Its HTTP part (step 4) was run against the embedded split layout
# (`npm run start:split`, the CLI as a third process) and passed. Needs docker with the compose plugin, curl, node and this checkout's
# node_modules (npm install) on the host.
#
#   docker/smoke.sh                 # everything
#   SKIP_SUITES=1 docker/smoke.sh   # compose up, the HTTP smoke, compose down
set -euo pipefail
cd "$(dirname "$0")/.."

COMPOSE=(docker compose -f docker/docker-compose.yml)
API=http://127.0.0.1:9991
STAMP=$(date +%s)

step() { printf '\n== %s\n' "$*"; }
fail() { printf 'SMOKE FAILED: %s\n' "$*" >&2; exit 1; }
# json FIELD_EXPRESSION: reads a JSON document on stdin, prints the expression evaluated on it (`d`).
json() { node -e "let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{const d=JSON.parse(s);const v=($1);process.stdout.write(typeof v==='string'?v:JSON.stringify(v))})"; }

cleanup() {
  local status=$?
  if [ "$status" -ne 0 ]; then
    step "logs of api and worker (last 80 lines each)"
    "${COMPOSE[@]}" logs --no-color --tail 80 api worker || true
  fi
  step "compose down"
  if [ "${KEEP_VOLUMES:-0}" = 1 ]; then "${COMPOSE[@]}" down; else "${COMPOSE[@]}" down -v; fi
  exit "$status"
}
trap cleanup EXIT

step "compose up"
"${COMPOSE[@]}" up -d --build

step "waiting for health"
for service in eventstoredb mongo redis api; do
  for i in $(seq 1 90); do
    state=$("${COMPOSE[@]}" ps --format '{{.Health}}' "$service" 2>/dev/null || true)
    [ "$state" = healthy ] && break
    [ "$i" = 90 ] && fail "$service not healthy after 180 s (state: ${state:-none})"
    sleep 2
  done
  echo "$service healthy"
done
# The worker has no health check: it must at least be running.
[ "$("${COMPOSE[@]}" ps --format '{{.State}}' worker)" = running ] || fail "worker not running"
curl -fsS "$API/health" | json 'd.status' | grep -qx ok || fail "/health is not ok"

# From the host: EventStoreDB insecure on 2113, MongoDB with directConnection (the replica set
# advertises mongo:27017, a name only the compose network resolves), Redis on 6379.
export ESDB_URL='esdb://127.0.0.1:2113?tls=false'
export MONGODB_URI='mongodb://127.0.0.1:27017/?directConnection=true'
export REDIS_URL='redis://127.0.0.1:6379'

if [ "${SKIP_SUITES:-0}" != 1 ]; then
  step "contract suites against the compose servers"
  npx jest --selectProjects contract
  step "npm run test:servers (the whole API suite) against the compose servers"
  npm run test:servers
fi

step "HTTP smoke against the compose api (RUN_PROJECTORS=false, beside the worker)"
cli() { "${COMPOSE[@]}" exec -T api node dist/apps/cli/src/main.js "$@"; }
REALM="smoke${STAMP}"
cli create-realm --string-id "$REALM" --name "Smoke $STAMP"
OWNER_KEY=$(cli create-user --realm "$REALM" --email "owner@$REALM.example" --full-name Owner --role owner --password "smoke-$STAMP" | sed -n 's/^API key: //p')
MEMBER_KEY=$(cli create-user --realm "$REALM" --email "member@$REALM.example" --full-name Member --role member | sed -n 's/^API key: //p')
[ -n "$OWNER_KEY" ] && [ -n "$MEMBER_KEY" ] || fail "could not create the accounts"
OWNER=(-u "owner@$REALM.example:$OWNER_KEY")
MEMBER=(-u "member@$REALM.example:$MEMBER_KEY")
# A password login works too (fetch_api_key answers the same key).
[ "$(curl -fsS -X POST "$API/api/v1/fetch_api_key" --data-urlencode "username=owner@$REALM.example" --data-urlencode "password=smoke-$STAMP" | json 'd.api_key')" = "$OWNER_KEY" ] || fail "fetch_api_key"

MEMBER_ID=$(curl -fsS "${MEMBER[@]}" "$API/api/v1/users/me" | json 'd.user_id')
curl -fsS "${OWNER[@]}" -X POST "$API/api/v1/users/me/subscriptions" --data-urlencode 'subscriptions=[{"name":"smoke"}]' --data-urlencode "principals=[$MEMBER_ID]" >/dev/null
STREAM_ID=$(curl -fsS "${OWNER[@]}" -G "$API/api/v1/get_stream_id" --data-urlencode stream=smoke | json 'd.stream_id')

echo "send"
MESSAGE_ID=$(curl -fsS "${OWNER[@]}" -X POST "$API/api/v1/messages" -d type=stream -d "to=$STREAM_ID" -d topic=checks -d content=hello | json 'd.id')
echo "read (another account; the answer to the send waited for the worker's projectors)"
[ "$(curl -fsS "${MEMBER[@]}" "$API/api/v1/messages/$MESSAGE_ID" | json 'd.message.content')" = '<p>hello</p>' ] || fail "read after send"
echo "edit"
curl -fsS "${OWNER[@]}" -X PATCH "$API/api/v1/messages/$MESSAGE_ID" -d content=edited >/dev/null
[ "$(curl -fsS "${MEMBER[@]}" "$API/api/v1/messages/$MESSAGE_ID" | json 'd.message.content')" = '<p>edited</p>' ] || fail "read after edit"
echo "flag"
curl -fsS "${MEMBER[@]}" -X POST "$API/api/v1/messages/flags" --data-urlencode "messages=[$MESSAGE_ID]" -d op=add -d flag=starred >/dev/null
STARRED=$(curl -fsS "${MEMBER[@]}" -G "$API/api/v1/messages" -d anchor=newest -d num_before=10 -d num_after=0 --data-urlencode 'narrow=[{"operator":"is","operand":"starred"}]' | json 'd.messages.map(m=>m.id)')
[ "$STARRED" = "[$MESSAGE_ID]" ] || fail "starred narrow answered $STARRED"

echo "a scheduled message 5 s out, delivered by the worker (BullMQ)"
AT=$(( $(date +%s) + 5 ))
curl -fsS "${OWNER[@]}" -X POST "$API/api/v1/scheduled_messages" -d type=stream -d "to=$STREAM_ID" -d topic=checks -d "content=scheduled $STAMP" -d "scheduled_delivery_timestamp=$AT" >/dev/null
delivered=0
for _ in $(seq 1 60); do
  if curl -fsS "${MEMBER[@]}" -G "$API/api/v1/messages" -d anchor=newest -d num_before=5 -d num_after=0 | json "d.messages.some(m=>m.content==='<p>scheduled $STAMP</p>')" | grep -qx true; then
    delivered=1
    break
  fi
  sleep 1
done
[ "$delivered" = 1 ] || fail "the scheduled message was not delivered within 60 s of its time"
[ "$(curl -fsS "${OWNER[@]}" "$API/api/v1/scheduled_messages" | json 'd.scheduled_messages.length')" = 0 ] || fail "still listed as scheduled"
echo "delivered $(( $(date +%s) - AT )) s after its time (checked every second)"

step "smoke passed"
