-- Filters as table macros, so every query applies them the same way: club, a date range
-- (inclusive), rule set, table size (p_seats: 4, 3 or 2 players; the marts' seats column,
-- so a rate never mixes a three-player table's deals with a four-player one's unasked), and
-- tablemates (deals where all of the listed players sat).
-- A null argument (or an empty list of tablemates) filters nothing. The two branches of
-- each union are exclusive: with no tablemates the second is dropped when the plan is
-- made; with some, the deals are looked up once in mart_seat_deals (mate_deals below;
-- list_has_all on every seat or transfer row, or an IN that always runs, were the slowest
-- part of the pages).

-- The shared filters on a row's club, day, rule set and table size: a null filter keeps
-- every row (a scalar macro, written out where it is called, so a scan still applies it to
-- its zone maps)
create or replace macro kept_by(p_club, p_from, p_to, p_rules, p_seats, v_club, v_day, v_rules, v_seats) as
    (p_club is null or v_club = p_club)
    and (p_from is null or v_day >= p_from)
    and (p_to is null or v_day <= p_to)
    and (p_rules is null or v_rules = p_rules)
    and (p_seats is null or v_seats = p_seats);

-- The deals where every one of the tablemates sat: their seats picked by name from
-- mart_seat_deals (a string compare per seat row), not list_has_all over every deal's list
-- of players (a list function per deal row, slower at a million deals).
create or replace macro mate_deals(p_mates) as table
select deal_id
from (
    select deal_id, count(distinct player) as mates
    from mart_seat_deals
    where list_contains(p_mates, player)
    group by deal_id
)
where mates = len(list_distinct(p_mates));

create or replace macro seat_deals_in(p_club, p_from, p_to, p_rules, p_seats, p_mates) as table
select *
from mart_seat_deals
where kept_by(p_club, p_from, p_to, p_rules, p_seats, club, played_date, rules, seats)
    and len(p_mates) = 0
union all
select *
from mart_seat_deals
where kept_by(p_club, p_from, p_to, p_rules, p_seats, club, played_date, rules, seats)
    and len(p_mates) > 0
    and deal_id in (select deal_id from mate_deals(p_mates));

-- The marts of sums (20_marts.sql: mart_player_days, mart_session_days, mart_pair_days,
-- mart_session_places, ...), the one named p_mart, under the shared filters; nothing when
-- tablemates are asked for (those read the seat rows of their deals: seat_deals_in,
-- pairs_in, flows_in).
create or replace macro sums_in(p_mart, p_club, p_from, p_to, p_rules, p_seats, p_mates) as table
select *
from query_table(p_mart)
where len(p_mates) = 0
    and kept_by(p_club, p_from, p_to, p_rules, p_seats, club, played_date, rules, seats);

-- Each session's players ranked by their net under the filters: placement 1..N (1st =
-- highest net) and the table's size (2, 3 or 4 seats). Ties: equal nets are ordered by
-- seat, the lower seat (earlier in the session's turn order) placing higher, then by name,
-- so every session has exactly one 1st, 2nd... Exclusive branches: with no tablemates a
-- session on one day, club and rule set is read ranked from mart_session_places (a filter
-- takes all of it or none), a session split over several is ranked here from
-- mart_session_days; with tablemates every session is ranked here from its seat rows.
create or replace macro session_ranks(p_club, p_from, p_to, p_rules, p_seats, p_mates) as table
with picked as (
    select *
    from seat_deals_in(p_club, p_from, p_to, p_rules, p_seats, p_mates)
    where len(p_mates) > 0
),

split as (
    select distinct session_id
    from sums_in('mart_session_places', p_club, p_from, p_to, p_rules, p_seats, p_mates)
    where placement is null
),

per_session as (
    select
        d.session_id,
        d.player,
        min(d.seat) as seat,
        min(d.played_at) as played_at,
        min(d.played_date) as played_date,
        cast(sum(d.deals) as bigint) as deals,
        cast(sum(d.net) as bigint) as net
    from sums_in('mart_session_days', p_club, p_from, p_to, p_rules, p_seats, p_mates) as d
    semi join split as s on d.session_id is not distinct from s.session_id
    group by d.session_id, d.player
    union all
    select
        session_id,
        player,
        min(seat) as seat,
        min(played_at) as played_at,
        min(played_date) as played_date,
        count(*) as deals,
        cast(sum(net) as bigint) as net
    from picked
    group by session_id, player
)

select
    *,
    row_number() over (partition by session_id order by net desc, seat, player) as placement,
    count(*) over (partition by session_id) as table_size
from per_session
union all
select session_id, player, seat, played_at, played_date, deals, net, placement, table_size
from sums_in('mart_session_places', p_club, p_from, p_to, p_rules, p_seats, p_mates)
where placement is not null;

-- the sessions' day rows (20_marts.sql mart_sessions) under the shared filters, the player's
-- (as shown) when one is named
create or replace macro sessions_in(p_club, p_from, p_to, p_rules, p_seats, p_player) as table
select *
from mart_sessions
where kept_by(p_club, p_from, p_to, p_rules, p_seats, club, played_date, rules, seats)
    and (p_player is null or list_contains(players, p_player));

create or replace macro pairs_in(p_club, p_from, p_to, p_rules, p_seats, p_mates) as table
select *
from mart_pairs
where kept_by(p_club, p_from, p_to, p_rules, p_seats, club, played_date, rules, seats)
    and len(p_mates) = 0
union all
select * from (  -- the tablemates' deals' seats paired (mart_pairs of those deals only)
    with seats as (
        select * from seat_deals_in(p_club, p_from, p_to, p_rules, p_seats, p_mates) where len(p_mates) > 0
    )

    select a.deal_id, a.played_date, a.club, a.rules, a.players, a.player, b.player as mate, a.net, a.seats
    from seats as a
    join seats as b on a.deal_id = b.deal_id and a.seat <> b.seat
);

create or replace macro flows_in(p_club, p_from, p_to, p_rules, p_seats, p_mates) as table
select *
from mart_flows
where kept_by(p_club, p_from, p_to, p_rules, p_seats, club, played_date, rules, seats)
    and len(p_mates) = 0
union all
select *
from mart_flows
where kept_by(p_club, p_from, p_to, p_rules, p_seats, club, played_date, rules, seats)
    and len(p_mates) > 0
    and deal_id in (select deal_id from mate_deals(p_mates));

create or replace macro findings_in(p_club, p_from, p_to, p_rules, p_seats) as table
select *
from mart_findings
where kept_by(p_club, p_from, p_to, p_rules, p_seats, club, played_date, rules, seats);

create or replace macro wins_in(p_club, p_from, p_to, p_rules, p_seats) as table
select *
from mart_wins
where kept_by(p_club, p_from, p_to, p_rules, p_seats, club, played_date, rules, seats);

-- The deals under the shared filters that one player may have sat ($player), with each
-- deal's players as written: the filters on the stored columns, so the scan applies them
-- (zone maps skip row groups), and the player checked on the names as written, a condition
-- every deal of the player meets (the player is written so, or shown "Name (club)" and
-- written Name). deals_in below makes it exact; a caller that shows few of many deals
-- (the deal search) makes the names as shown for the deals it shows only.
create or replace macro deal_rows_in(p_club, p_from, p_to, p_rules, p_seats, p_player) as table
select *
from stg_deals
where kept_by(p_club, p_from, p_to, p_rules, p_seats, club, played_date, rules, len(players))
    and (
        p_player is null
        or list_contains(players, p_player)
        or (
            club is not null
            and ends_with(p_player, ' (' || club || ')')
            and list_contains(list_transform(players, lambda w: w || ' (' || club || ')'), p_player)
        )
    );

-- The deals under the shared filters and one player who sat ($player), with each deal's
-- players as shown (names are per club: mart_shared_names, 20_marts.sql): made so only for
-- the deals deal_rows_in keeps, then the player checked exactly, on the names as shown.
create or replace macro deals_in(p_club, p_from, p_to, p_rules, p_seats, p_player) as table
select *
from (
    select d.* replace (shown_players(d.players, d.club, n.names) as players)
    from deal_rows_in(p_club, p_from, p_to, p_rules, p_seats, p_player) as d
    cross join mart_shared_names as n
)
where p_player is null or list_contains(players, p_player);
