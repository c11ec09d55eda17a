-- Marts: what the pages and the Python API read. Every statistic counts only deals
-- replayed to their end (status ok or findings); invalid deals are in the audit only.
-- Analytics(materialize=True), the dashboard's default, turns the marts listed in
-- analytics/queries.py MATERIALIZED into in-memory tables once per catalog version, so
-- page queries do not read Parquet again (dbt's materialized='table').

-- complete deals with who sat (the tablemates filter looks here, 4x fewer rows than seats)
create or replace view mart_deals as
select deal_id, played_date, club, rules, players, record
from stg_deals
where is_complete;

-- one row per deal and seat, with the table's context for the filters; a score-sheet deal
-- (record 'sheet') has every column but the tile-only ones (void_suit, win_turn, win_tile)
create or replace view mart_seat_deals as
select
    s.deal_id,
    s.session_id,
    s.played_at,
    s.played_date,
    d.club,
    d."table",
    d.rules,
    d.base,
    d.players,
    d.end_reason,
    s.status,
    s.seat,
    s.player,
    s.is_dealer,
    s.void_suit,
    s.won,
    s.win_order,
    s.win_turn,
    s.win_kind,
    s.win_kind_zh,
    s.is_self_draw,
    s.win_tile,
    s.win_from_seat,
    s.fan,
    s.fan_uncapped,
    s.capped,
    s.base_pattern,
    s.extras,
    s.roots,
    s.win_points,
    s.dealt_in,
    s.deal_in_points,
    s.kongs_exposed,
    s.kongs_added,
    s.kongs_concealed,
    s.kongs_robbed,
    s.kongs_exposed + s.kongs_added + s.kongs_concealed as kongs,
    s.kong_income,
    s.kong_paid,
    s.flower_pig,
    s.ready_at_end,
    s.ready_fan,
    s.cha_jiao_paid,
    s.cha_jiao_received,
    s.no_ting_paid,
    s.no_ting_received,
    s.net,
    d.record,
    d.is_sheet
from stg_seats as s
join stg_deals as d using (deal_id)
where d.is_complete and s.player is not null;

-- one row per win
create or replace view mart_wins as
select * from mart_seat_deals where won;

-- one row per deal and ordered pair of seats: who sat with whom
create or replace view mart_pairs as
select
    a.deal_id,
    a.played_date,
    a.club,
    a.rules,
    a.players,
    a.player,
    b.player as mate,
    a.net
from mart_seat_deals as a
join mart_seat_deals as b on a.deal_id = b.deal_id and a.seat <> b.seat;

-- every transfer between two players, with the deal's context
create or replace view mart_flows as
select
    l.deal_id,
    d.session_id,
    d.played_date,
    d.club,
    d.rules,
    d.players,
    l.seq,
    l.line,
    l.reason,
    l.payer,
    l.payee,
    l.payer_player,
    l.payee_player,
    l.amount
from stg_ledger as l
join stg_deals as d using (deal_id)
where d.is_complete and l.payer_player is not null and l.payee_player is not null;

-- every finding, with the deal's context when it belongs to a deal; every column of the
-- findings table passes through (a column a newer ingest adds, such as message_zh, too)
create or replace view mart_findings as
select
    f.* exclude (session_id, month),
    coalesce(f.session_id, d.session_id) as session_id,
    d.played_date,
    d.club,
    d.rules,
    d.players,
    d.status as deal_status
from stg_findings as f
left join stg_deals as d on f.deal_id = d.deal_id;
