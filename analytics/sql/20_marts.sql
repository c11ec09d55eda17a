-- Marts: what the pages and the Python API read. Every statistic counts only deals
-- replayed to their end (status ok or findings); invalid deals are in the audit only.
-- Analytics(materialize=True), the dashboard's default, turns the marts listed in
-- analytics/queries.py MATERIALIZED into in-memory tables once per catalog version, so
-- page queries do not read Parquet again (dbt's materialized='table').

-- Players are per club (玩家按俱乐部区分): one name written in the files of two clubs is two
-- people. The name each player is shown and keyed by everywhere below: the name itself when
-- it plays in one club only, "Name (club)" when the same name plays in several clubs (counted
-- over every stored deal, so a filter never renames anyone). A seat of a deal with no club
-- keeps the bare name.
create or replace view mart_shared_names as
select coalesce(list_sort(list(player)), cast([] as varchar[])) as names
from (
    select s.player
    from stg_seats as s
    join stg_deals as d using (deal_id)
    where d.club is not null and s.player is not null
    group by s.player
    having count(distinct d.club) > 1
);

create or replace macro shown_player(p_name, p_club, p_shared) as
case
    when p_club is not null and list_contains(p_shared, p_name) then p_name || ' (' || p_club || ')'
    else p_name
end;

-- a list of names (a deal's or a session's players) as shown
create or replace macro shown_players(p_names, p_club, p_shared) as
list_transform(p_names, lambda p: shown_player(p, p_club, p_shared));

-- complete deals with who sat (one row a deal, where the seats have one a player)
create or replace view mart_deals as
select
    d.deal_id,
    d.played_date,
    d.club,
    d.rules,
    shown_players(d.players, d.club, n.names) as players,
    d.record,
    len(d.players) as seats  -- the table's size (4, 3 or 2): its players, one a seat
from stg_deals as d
cross join mart_shared_names as n
where d.is_complete;

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
    shown_player(s.player, d.club, n.names) as player,
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
    s.win_count,  -- every win of the seat in the deal (血流成河: more than one)
    s.win_fans,  -- the fan of each (the columns above describe the first)
    d.record,
    d.is_sheet,
    s.player as name,  -- the name as written in the file (the same in every club)
    len(d.players) as seats  -- the table's size (4, 3 or 2)
from stg_seats as s
join stg_deals as d using (deal_id)
cross join mart_shared_names as n
where d.is_complete and s.player is not null;

-- 复盘: the review rows stored (the reviews table, one row a seat, written by the review
-- step after ingest: dashboard/stored_reviews.py), kept as a table keyed by deal_id.
create or replace view mart_reviews as
select * exclude (month, player) from raw_reviews;

-- one row per seat of a complete deal with its review figures (mart_reviews) and the
-- seat's context for the filters. A score sheet's seat has its points only (tiles false,
-- why 'score_sheet'); a deal the review step has not reached yet has none (reviewed
-- false): the Review page counts both apart and says how to review the rest.
create or replace view mart_review_seats as
select
    s.deal_id,
    s.played_date,
    s.club,
    s.rules,
    s.seats,
    s.seat,
    s.player,
    s.name,
    r.deal_id is not null as reviewed,
    r.* exclude (deal_id, seat)
from mart_seat_deals as s
left join mart_reviews as r on r.deal_id = s.deal_id and r.seat = s.seat;

-- one row per winning seat and deal (its first win; win_count / win_fans tell every win)
create or replace view mart_wins as
select * from mart_seat_deals where won;

-- each complete deal's highest fan over every win (血流成河: a seat's later wins too), null
-- where nobody won: what the deal search orders by, kept (MATERIALIZED) so a search reads
-- one row per deal instead of grouping every win
create or replace view mart_deal_fans as
select deal_id, max(list_max(win_fans)) as max_fan
from mart_wins
group by deal_id;

-- one row per deal and ordered pair of seats: who sat with whom (a view, never kept: twelve
-- rows a deal; the pages read mart_pair_days, or the tablemates' deals: 30_filters.sql pairs_in)
create or replace view mart_pairs as
select
    a.deal_id,
    a.played_date,
    a.club,
    a.rules,
    a.players,
    a.player,
    b.player as mate,
    a.net,
    a.seats
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
    shown_player(l.payer_player, d.club, n.names) as payer_player,
    shown_player(l.payee_player, d.club, n.names) as payee_player,
    l.amount,
    len(d.players) as seats
from stg_ledger as l
join stg_deals as d using (deal_id)
cross join mart_shared_names as n
where d.is_complete and l.payer_player is not null and l.payee_player is not null;

-- every finding, with the deal's context when it belongs to a deal; every column of the
-- findings table passes through (a column a newer ingest adds, such as message_zh, too)
-- A finding of no deal takes its session's club, day, rules and players (a wrong session
-- total belongs to its club: a club's filter and a club's token keep it); a file's
-- finding has neither and stays outside every club's view.
create or replace view mart_findings as
select
    f.* exclude (session_id, month)
        replace (shown_player(f.player, coalesce(d.club, s.club), n.names) as player),
    coalesce(f.session_id, d.session_id) as session_id,
    coalesce(d.played_date, s.played_date) as played_date,
    coalesce(d.club, s.club) as club,
    coalesce(d.rules, s.rules) as rules,
    coalesce(d.players, s.players) as players,
    d.record as deal_record,  -- how the deal's source counts its seats (a sheet 1-4)
    d.status as deal_status,
    len(coalesce(d.players, s.players)) as seats  -- null for a file's finding
from stg_findings as f
left join stg_deals as d on f.deal_id = d.deal_id
left join (
    select
        session_id,
        any_value(played_date) as played_date,
        any_value(club) as club,
        any_value(rules) as rules,
        any_value(players) as players
    from stg_sessions
    group by session_id
) as s on f.deal_id is null and s.session_id = f.session_id
cross join mart_shared_names as n;

-- quarantined lines counted by reason (what the audit's deal status shows): the lines stay in
-- Parquet, read by a deal's replay only; counting them at every query read every batch's
-- file (tens of millions of lines at a million deals). A new batch's counts are added to
-- the held ones (analytics/queries.py SUMMED): a revision supersedes deals, never lines.
create or replace view mart_quarantine_reasons as
select reason, count(*) as lines
from stg_quarantine
group by reason;

-- the player table's sums per player, club, rule set and day: what player_stats reads when
-- no tablemates are asked for (a few rows per player and day instead of one per seat, so
-- its cost follows the players and days shown, not the deals stored). Kept from
-- mart_seat_deals: a full build materializes the view; an incremental refresh makes again
-- the days its new and superseded deals touch (player_days over those days,
-- analytics/queries.py DERIVED). The biggest win is kept as each group's first by the
-- player table's order (points, then fan, then the earliest deal_id): the first of those
-- is the first over all the rows.
create or replace macro player_days(p_all, p_days, p_no_day) as table
select
    player,
    name,  -- as written (one per player: a player is a name in a club)
    club,
    rules,
    played_date,
    count(*) as deals,
    count(*) filter (where won) as wins,  -- deals won: a seat winning twice in a deal counts once
    sum(win_count) as all_wins,  -- every win (血流成河: a seat may win again)
    count(*) filter (where is_self_draw) as self_draws,
    sum(dealt_in) as deal_ins,
    count(*) filter (where dealt_in > 0) as deal_in_deals,
    sum(list_sum(win_fans)) filter (where won) as fan_total,  -- over every win
    sum(win_points) filter (where won) as win_points_total,
    sum(deal_in_points) as deal_in_points,
    sum(net) as net,
    sum(kongs) as kongs,
    sum(kongs_exposed) as kongs_exposed,
    sum(kongs_added) as kongs_added,
    sum(kongs_concealed) as kongs_concealed,
    sum(kong_income) as kong_income,
    count(*) filter (where flower_pig) as flower_pigs,
    count(ready_at_end) as wall_end_deals,
    count(*) filter (where ready_at_end) as ready_at_end,
    sum(cha_jiao_paid) as cha_jiao_paid,
    sum(cha_jiao_received) as cha_jiao_received,
    count(*) filter (where win_order = 1) as win_order_1,
    count(*) filter (where win_order = 2) as win_order_2,
    count(*) filter (where win_order = 3) as win_order_3,
    sum(win_turn) filter (where won and not is_sheet) as win_turn_total,
    count(win_turn) filter (where won and not is_sheet) as win_turn_count,
    count(*) filter (where is_sheet) as sheet_deals,
    max(win_points) as biggest_win,
    first(win_points order by win_points desc nulls last, fan desc nulls last, deal_id) filter (where win_points is not null) as best_points,
    first(fan order by win_points desc nulls last, fan desc nulls last, deal_id) filter (where win_points is not null) as best_fan,
    first(deal_id order by win_points desc nulls last, fan desc nulls last, deal_id) filter (where win_points is not null) as best_deal,
    seats  -- one value a rule set (the rule set says the table's size)
from mart_seat_deals
where p_all or list_contains(p_days, played_date) or (p_no_day and played_date is null)
group by player, name, club, rules, played_date, seats;

create or replace view mart_player_days as
select * from player_days(true, cast([] as date[]), false);

-- each player's net per session, club, rule set and day: what the placements read when no
-- tablemates are asked for (one row per player and session day instead of one per seat).
-- Kept like mart_player_days (analytics/queries.py DERIVED).
create or replace macro session_days(p_all, p_days, p_no_day) as table
select
    session_id,
    player,
    club,
    rules,
    played_date,
    min(seat) as seat,
    min(played_at) as played_at,
    count(*) as deals,
    sum(net) as net,
    seats
from mart_seat_deals
where p_all or list_contains(p_days, played_date) or (p_no_day and played_date is null)
group by session_id, player, club, rules, played_date, seats;

create or replace view mart_session_days as
select * from session_days(true, cast([] as date[]), false);

-- each session's placements (1st = highest net; ties as in queries/session_placements.sql),
-- kept by day: a session whose rows lie on one day, in one club and under one rule set (as
-- ingest writes every session: its deals share its start) is ranked here once, since a
-- filter takes all of it or none of it; a session split over several (two session lines of
-- one id) keeps placement and table_size null and the queries rank it under their filters.
-- Kept like mart_player_days (DERIVED); the days an incremental refresh makes again include
-- every day of each session it touches (a session may become split), and a name newly
-- shared makes it again whole (a tie goes by name).
create or replace macro session_places(p_all, p_days, p_no_day) as table
with picked as (
    select *
    from mart_session_days as d
    where p_all or exists (
        select 1
        from mart_session_days as t
        where t.session_id is not distinct from d.session_id
            and (list_contains(p_days, t.played_date) or (p_no_day and t.played_date is null))
    )
),

keys as (
    select session_id, count(distinct (club, rules, played_date)) as keys
    from picked
    group by session_id
)

select
    p.session_id,
    p.player,
    p.club,
    p.rules,
    p.played_date,
    p.seat,
    p.played_at,
    p.deals,
    cast(p.net as bigint) as net,
    case when k.keys = 1 then row_number() over (partition by p.session_id order by p.net desc, p.seat, p.player) end as placement,
    case when k.keys = 1 then count(*) over (partition by p.session_id) end as table_size,
    p.seats
from picked as p
join keys as k on k.session_id is not distinct from p.session_id
where p_all or list_contains(p_days, p.played_date) or (p_no_day and p.played_date is null);

create or replace view mart_session_places as
select * from session_places(true, cast([] as date[]), false);

-- each ordered pair of players' sessions together and how often the first placed above
-- the second, per club, rule set and day, over the sessions mart_session_places ranks
-- (what mate_records reads when no tablemates are asked for). Kept like mart_session_places.
create or replace macro pair_places(p_all, p_days, p_no_day) as table
select
    a.player,
    b.player as mate,
    a.club,
    a.rules,
    a.played_date,
    count(*) as sessions,
    count(*) filter (where a.placement < b.placement) as placed_above,
    a.seats
from mart_session_places as a
join mart_session_places as b on a.session_id = b.session_id and a.player <> b.player
where a.placement is not null and b.placement is not null
    and (p_all or list_contains(p_days, a.played_date) or (p_no_day and a.played_date is null))
group by a.player, b.player, a.club, a.rules, a.played_date, a.seats;

create or replace view mart_pair_places as
select * from pair_places(true, cast([] as date[]), false);

-- each session's deals per club, rule set, day and list of players, every status counted
-- (invalid deals too): what the session pickers list (queries/session_list.sql), one row per
-- session day instead of one per deal. Every deal of a row sat the row's players, so a
-- player filter on the row is the filter on each of its deals. Kept like mart_player_days
-- (DERIVED), from stg_deals, so a day whose only new deal is invalid is made again too.
create or replace macro session_rows(p_all, p_days, p_no_day) as table
select
    s.* replace (shown_players(s.players, s.club, n.names) as players)
from (
    select
        session_id,
        club,
        rules,
        played_date,
        min(played_at) as played_at,
        count(*) filter (where status = 'invalid') as invalid_deals,
        any_value("table") as "table",
        players,
        count(*) as deals,
        count(*) filter (where status <> 'ok') as findings_deals,
        count(*) filter (where not is_sheet) as tile_deals,
        len(players) as seats
    from stg_deals
    where p_all or list_contains(p_days, played_date) or (p_no_day and played_date is null)
    group by session_id, club, rules, played_date, players
) as s
cross join mart_shared_names as n;

create or replace view mart_sessions as
select * from session_rows(true, cast([] as date[]), false);

-- each ordered pair of players' deals together and the first's net in them, per club, rule
-- set and day: what tablemates and mate_records read when no tablemates are asked for (a
-- row per pair and day instead of twelve per deal). Kept like mart_player_days (DERIVED).
create or replace macro pair_days(p_all, p_days, p_no_day) as table
with seats as (  -- mart_pairs of the days: their seats paired within each deal
    select deal_id, seat, player, club, rules, played_date, net, seats
    from mart_seat_deals
    where p_all or list_contains(p_days, played_date) or (p_no_day and played_date is null)
)

select
    a.player,
    b.player as mate,
    a.club,
    a.rules,
    a.played_date,
    count(*) as deals,
    cast(sum(a.net) as bigint) as net,
    a.seats
from seats as a
join seats as b on a.deal_id = b.deal_id and a.seat <> b.seat
group by a.player, b.player, a.club, a.rules, a.played_date, a.seats;

create or replace view mart_pair_days as
select * from pair_days(true, cast([] as date[]), false);

-- the transfers from each player to each other per reason, club, rule set and day: what
-- head_to_head, deal_ins and mate_records read when no tablemates are asked for. Kept like
-- mart_player_days (DERIVED).
create or replace macro flow_days(p_all, p_days, p_no_day) as table
select
    payer_player,
    payee_player,
    reason,
    club,
    rules,
    played_date,
    count(*) as transfers,
    cast(sum(amount) as bigint) as points,
    seats
from mart_flows
where p_all or list_contains(p_days, played_date) or (p_no_day and played_date is null)
group by payer_player, payee_player, reason, club, rules, played_date, seats;

create or replace view mart_flow_days as
select * from flow_days(true, cast([] as date[]), false);

-- every win (血流成河: a seat's later wins too, from win_fans) by total fan, per player,
-- club, rule set and day; capped (封顶) is known for a seat's first win of a deal only. What
-- fan_by_total reads when no tablemates are asked for. Kept like mart_player_days (DERIVED).
create or replace macro fan_days(p_all, p_days, p_no_day) as table
select
    w.player,
    w.club,
    w.rules,
    w.played_date,
    f.fan,
    count(*) as wins,
    count(*) filter (where f.n = 1 and w.capped) as capped,
    w.seats
from mart_seat_deals as w,
    unnest(w.win_fans) with ordinality as f(fan, n)
where w.won and (p_all or list_contains(p_days, w.played_date) or (p_no_day and w.played_date is null))
group by w.player, w.club, w.rules, w.played_date, f.fan, w.seats;

create or replace view mart_fan_days as
select * from fan_days(true, cast([] as date[]), false);

-- every deal (complete or not, as stg_deals) per club, rule set and day, counted by status,
-- record and wins: what overview and activity read when no player is picked. Kept like
-- mart_player_days (DERIVED).
create or replace macro deal_days(p_all, p_days, p_no_day) as table
select
    club,
    rules,
    played_date,
    count(*) as deals,
    count(*) filter (where is_complete) as complete_deals,
    count(*) filter (where status = 'ok') as ok_deals,
    count(*) filter (where status <> 'ok') as not_ok_deals,
    count(*) filter (where status = 'findings') as findings_deals,
    count(*) filter (where status = 'invalid') as invalid_deals,
    sum(findings) as findings,
    count(*) filter (where is_sheet) as sheet_deals,
    count(*) filter (where not is_sheet) as tile_deals,
    sum(wins) filter (where is_complete) as wins,
    len(players) as seats
from stg_deals
where p_all or list_contains(p_days, played_date) or (p_no_day and played_date is null)
group by club, rules, played_date, len(players);

create or replace view mart_deal_days as
select * from deal_days(true, cast([] as date[]), false);

-- the wins (each seat's first in its deal, as mart_wins) per player, club, rule set and day,
-- and per what the fan pages group or average by (win kind, base pattern, fan, roots, cap,
-- sheet), with the sums and counts of what they average: what win_kinds, fan_summary,
-- fan_by_rules, fan_by_pattern and fan_roots read when no tablemates are asked for. Kept
-- like mart_player_days (DERIVED).
create or replace macro win_days(p_all, p_days, p_no_day) as table
select
    player,
    club,
    rules,
    played_date,
    win_kind,
    win_kind_zh,
    base_pattern,
    fan,
    roots,
    capped,
    is_sheet,
    count(*) as wins,
    sum(fan_uncapped) as fan_uncapped,
    count(fan_uncapped) as fan_uncapped_count,
    sum(win_points) as points,
    count(win_points) as points_count,
    seats
from mart_seat_deals
where won and (p_all or list_contains(p_days, played_date) or (p_no_day and played_date is null))
group by player, club, rules, played_date, win_kind, win_kind_zh, base_pattern, fan, roots, capped, is_sheet, seats;

create or replace view mart_win_days as
select * from win_days(true, cast([] as date[]), false);

-- the wins with each base pattern and each extra (an extra counted once per win that has
-- it), per player, club, rule set and day: what pattern_rates reads when no tablemates are
-- asked for (the wins themselves: mart_player_days). Kept like mart_player_days (DERIVED).
create or replace macro pattern_days(p_all, p_days, p_no_day) as table
select player, club, rules, played_date, pattern, kind, count(*) as hits, seats
from (
    select player, club, rules, played_date, base_pattern as pattern, 'base' as kind, seats
    from mart_seat_deals
    where won and base_pattern is not null
        and (p_all or list_contains(p_days, played_date) or (p_no_day and played_date is null))
    union all
    select player, club, rules, played_date, pattern, 'extra' as kind, seats
    from (
        select distinct player, club, rules, played_date, deal_id, seat, seats, unnest(extras) as pattern
        from mart_seat_deals
        where won and (p_all or list_contains(p_days, played_date) or (p_no_day and played_date is null))
    )
)
group by player, club, rules, played_date, pattern, kind, seats;

create or replace view mart_pattern_days as
select * from pattern_days(true, cast([] as date[]), false);
