# In a second terminal, in the checkout, while `make run PORT=…` serves (PORT: the same port,
# 8000 if unset). Every step checks its answer: the script stops, exiting 1, at the first one
# that does not answer as shown.
set -euo pipefail
API=http://127.0.0.1:${PORT:-8000}/api/v1
PY=${PYTHON:-.venv/bin/python}

# A token for the demo director that make run created (manage.py reads make run's .env).
TOKEN=$($PY manage.py drf_create_token director | cut -d' ' -f3)
[ -n "$TOKEN" ]

# call STATUS URL [curl options]: prints the answer's status and body, keeps the body in
# $ANSWER; stops unless the answer's status is STATUS.
call() {
  local expected=$1 url=$2 out; shift 2
  out=$(curl -sS -w ' %{http_code}' "$API$url" "$@")
  ANSWER=${out% *}; echo "${out##* } $ANSWER"
  [ "${out##* }" = "$expected" ] || { echo "$url: expected $expected" >&2; exit 1; }
}
# api STATUS URL [curl options]: the same as the director, sending JSON.
api() {
  local expected=$1 url=$2; shift 2
  call "$expected" "$url" -H "Authorization: Token $TOKEN" -H "Content-Type: application/json" "$@"
}
# shows TEXT: stops unless the last answer shows TEXT.
shows() { grep -qF -- "$1" <<<"$ANSWER" || { echo "the answer lacks $1" >&2; exit 1; }; }
# field NAME: one field of the last answer.
field() { $PY -c 'import json, sys; print(json.loads(sys.argv[2])[sys.argv[1]])' "$1" "$ANSWER"; }

# A new club (the demo club is club 1): its creator, the director, directs it.
api 201 /clubs/ -d '{"name": "Athens Bridge Club", "slug": "athens", "country": "GR",
  "timezone": "Europe/Athens", "public": true}'
# 201 {"id":2,"name":"Athens Bridge Club","slug":"athens","country":"GR","language":"en",
#  "timezone":"Europe/Athens","public":true,"chicago_vulnerability":"dealer",
#  "par_scoring":false,"par_table":null,
#  "ladder_min_matches":0,"ladder_rounding":"none","ladder_ranking":"net",
#  "ladder_points_win":3,"ladder_points_draw":1,"ladder_points_loss":0,
#  "ladder_best_matches":0,"handicap_strength":0,"handicap_cap":300,"night_ranking":"total",
#  "night_min_matches":0,"night_rank_by":"net","handicap_prizes":false,"api_origins":[],
#  "created_at":"…","updated_at":"…"}
CLUB=$(field id)

api 201 /seasons/ -d '{"club": '$CLUB', "name": "Spring 2025",
  "start_date": "2025-03-01", "end_date": "2025-06-30"}'
# 201 {"id":2,"club":2,"name":"Spring 2025","start_date":"2025-03-01","end_date":"2025-06-30",
#  "updated_at":"…"}

api 201 /players/ -d '{"club": '$CLUB', "name": "Eleni"}'; NORTH=$(field id)
# 201 {"id":18,"club":2,"name":"Eleni","role":"player","active":true,
#  "memberships":[{"club":2,"role":"player","active":true}],"created_at":"…",
#  "updated_at":"…"}
api 201 /players/ -d '{"club": '$CLUB', "name": "Nikos"}'; EAST=$(field id)
# 201 {"id":19,"club":2,"name":"Nikos",…}
api 201 /players/ -d '{"club": '$CLUB', "name": "Maria"}'; SOUTH=$(field id)
# 201 {"id":20,"club":2,"name":"Maria",…}
api 201 /players/ -d '{"club": '$CLUB', "name": "Yannis"}'; WEST=$(field id)
# 201 {"id":21,"club":2,"name":"Yannis",…}

api 201 /matches/ -d '{"club": '$CLUB', "kind": "chicago", "played_on": "2025-03-14",
  "seats": {"N": '$NORTH', "E": '$EAST', "S": '$SOUTH', "W": '$WEST'}, "first_dealer": "N"}'
# 201 {"id":53,"club":2,"season":2,"session":10,"table":28,"table_number":1,
#  "played_on":"2025-03-14","kind":"chicago","status":"in_progress","first_dealer":"N",
#  "seats":{"N":18,"E":19,"S":20,"W":21},"totals":{"NS":0,"EW":0},"winner":null,
#  "finished_early":false,"deals":0,"pending":[],"created_at":"…","updated_at":"…"}
MATCH=$(field id)

api 201 /matches/$MATCH/deals/ -H "Idempotency-Key: match-$MATCH-deal-1" \
  -d '{"contract": "4S", "declarer": "N", "tricks": 10}'
# 201 {"match":53,"sequence":1,"number":1,"dealer":"N","vulnerable":[],"passed_out":false,
#  "contract":"4S","declarer":"N","tricks":10,"result":"=","score":{"NS":420,"EW":0},
#  "partscore":{"NS":0,"EW":0},"game_won_by":"NS","games":{"NS":1,"EW":0},
#  "items":[{"kind":"trick_points","side":"NS","points":120,"below_line":true},
#           {"kind":"game_bonus","side":"NS","points":300,"below_line":false}],
#  "entry":{"via":"director","entered_by":null,"confirmed_by":null,
#           "settled_by_director":false},"updated_at":"…"}
# The same request again (a retry): the same answer, sent with "Idempotent-Replayed: true",
# and still one deal (the next deal is sequence 2).
api 201 /matches/$MATCH/deals/ -H "Idempotency-Key: match-$MATCH-deal-1" \
  -d '{"contract": "4S", "declarer": "N", "tricks": 10}'
# 201 {"match":53,"sequence":1,"number":1,…}

api 201 /matches/$MATCH/deals/ -d '{"passed_out": true}'
# 201 {"match":53,"sequence":2,"number":null,"dealer":"E","vulnerable":["EW"],
#  "passed_out":true,"contract":null,"declarer":null,"tricks":null,"result":null,
#  "score":{"NS":0,"EW":0},…}

api 201 /matches/$MATCH/deals/ -d '{"contract": "3NTX", "declarer": "E", "tricks": 8}'
# 201 {"match":53,"sequence":3,"number":2,"dealer":"E","vulnerable":["EW"],…"result":"-1",
#  "score":{"NS":200,"EW":0},…"items":[{"kind":"undertricks","side":"NS","points":200,
#  "below_line":false}],…}

api 400 /matches/$MATCH/deals/ -d '{"contract": "2H", "declarer": "S", "tricks": 14}'
# 400 {"code":"invalid","detail":"tricks: must be 0 to 13",
#  "errors":{"tricks":["must be 0 to 13"]},"codes":{"tricks":["max_value"]}}

api 201 /matches/$MATCH/deals/ -d '{"contract": "2H", "declarer": "S", "tricks": 9}'
# 201 {"match":53,"sequence":4,"number":3,"dealer":"S","vulnerable":["NS"],…"tricks":9,
#  "result":"+1","score":{"NS":90,"EW":0},…}
# A correction (the deal's sequence in the address):
api 200 /matches/$MATCH/deals/4/ -X PATCH -d '{"tricks": 8}'; shows '"result":"="'
# 200 {"match":53,"sequence":4,"number":3,"dealer":"S","vulnerable":["NS"],…"tricks":8,
#  "result":"=","score":{"NS":60,"EW":0},"partscore":{"NS":60,"EW":0},…}

api 201 /matches/$MATCH/deals/ -d '{"contract": "1NT", "declarer": "W", "tricks": 7}'
# 201 {"match":53,"sequence":5,"number":4,"dealer":"W","vulnerable":["NS","EW"],…
#  "score":{"NS":0,"EW":140},"partscore":{"NS":60,"EW":40},…
#  "items":[{"kind":"trick_points","side":"EW","points":40,"below_line":true},
#           {"kind":"partscore_bonus","side":"EW","points":100,"below_line":false}],…}

api 409 /matches/$MATCH/deals/ -d '{"contract": "1NT", "declarer": "N", "tricks": 7}'
# 409 {"code":"conflict","detail":"a Chicago match is exactly 4 deals and all 4 have been
#  played; it accepts no further deal","errors":{},"codes":{}}

# A public club's score sheet: no credentials needed.
call 200 /matches/$MATCH/score-sheet/; shows '"totals":{"NS":680,"EW":140}'
# 200 {"match":53,"kind":"chicago","status":"complete","complete":true,"finished_early":false,
#  "winner":"NS","totals":{"NS":680,"EW":140},"above":{"NS":500,"EW":100},
#  "below":{"NS":180,"EW":40},"games":{"NS":1,"EW":0},
#  "seats":{"N":{"id":18,"name":"Eleni"},"E":{"id":19,"name":"Nikos"},
#           "S":{"id":20,"name":"Maria"},"W":{"id":21,"name":"Yannis"}},
#  "deals":[…],"closing_items":[],"next_deal":null,"par":null}
# (the five deals as above)

api 200 "/matches/?club=$CLUB&status=complete&ordering=-played_on"; shows '"count":1,'
# 200 {"count":1,"next":null,"previous":null,"results":[{"id":53,…"status":"complete",…
#  "totals":{"NS":680,"EW":140},"winner":"NS","finished_early":false,"deals":5,…}]}

api 400 "/matches/?clb=$CLUB"
# 400 {"code":"invalid","detail":"clb: unknown query parameter; this list accepts: club,
#  kind, ordering, page, page_size, played_after, played_before, played_on, player,
#  season, session, status, updated_since","errors":{"clb":[…]}}
