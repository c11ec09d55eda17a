-- Filters as table macros, so every query applies them the same way: club, a date range
-- (inclusive), rule set, and tablemates (deals where all of the listed players sat).
-- A null argument (or an empty list of tablemates) filters nothing. The two branches of
-- each union are exclusive: with no tablemates the second is dropped when the plan is
-- made; with some, they are looked up once per deal in mart_deals (list_has_all on every
-- seat or transfer row, or an IN that always runs, were the slowest part of the pages).

create or replace macro seat_deals_in(p_club, p_from, p_to, p_rules, p_mates) as table
select *
from mart_seat_deals
where (p_club is null or club = p_club)
    and (p_from is null or played_date >= p_from)
    and (p_to is null or played_date <= p_to)
    and (p_rules is null or rules = p_rules)
    and len(p_mates) = 0
union all
select *
from mart_seat_deals
where (p_club is null or club = p_club)
    and (p_from is null or played_date >= p_from)
    and (p_to is null or played_date <= p_to)
    and (p_rules is null or rules = p_rules)
    and len(p_mates) > 0
    and deal_id in (select deal_id from mart_deals where list_has_all(players, p_mates));

create or replace macro pairs_in(p_club, p_from, p_to, p_rules, p_mates) as table
select *
from mart_pairs
where (p_club is null or club = p_club)
    and (p_from is null or played_date >= p_from)
    and (p_to is null or played_date <= p_to)
    and (p_rules is null or rules = p_rules)
    and len(p_mates) = 0
union all
select *
from mart_pairs
where (p_club is null or club = p_club)
    and (p_from is null or played_date >= p_from)
    and (p_to is null or played_date <= p_to)
    and (p_rules is null or rules = p_rules)
    and len(p_mates) > 0
    and deal_id in (select deal_id from mart_deals where list_has_all(players, p_mates));

create or replace macro flows_in(p_club, p_from, p_to, p_rules, p_mates) as table
select *
from mart_flows
where (p_club is null or club = p_club)
    and (p_from is null or played_date >= p_from)
    and (p_to is null or played_date <= p_to)
    and (p_rules is null or rules = p_rules)
    and len(p_mates) = 0
union all
select *
from mart_flows
where (p_club is null or club = p_club)
    and (p_from is null or played_date >= p_from)
    and (p_to is null or played_date <= p_to)
    and (p_rules is null or rules = p_rules)
    and len(p_mates) > 0
    and deal_id in (select deal_id from mart_deals where list_has_all(players, p_mates));

create or replace macro findings_in(p_club, p_from, p_to, p_rules) as table
select *
from mart_findings
where (p_club is null or club = p_club)
    and (p_from is null or played_date >= p_from)
    and (p_to is null or played_date <= p_to)
    and (p_rules is null or rules = p_rules);

create or replace macro wins_in(p_club, p_from, p_to, p_rules) as table
select *
from mart_wins
where (p_club is null or club = p_club)
    and (p_from is null or played_date >= p_from)
    and (p_to is null or played_date <= p_to)
    and (p_rules is null or rules = p_rules);

-- The deals under the shared filters and one player who sat ($player), with each deal's
-- players as shown (names are per club: mart_shared_names, 20_marts.sql).
create or replace macro deals_in(p_club, p_from, p_to, p_rules, p_player) as table
select *
from (
    select d.* replace (list_transform(d.players, lambda p: shown_player(p, d.club, n.names)) as players)
    from stg_deals as d
    cross join mart_shared_names as n
)
where (p_club is null or club = p_club)
    and (p_from is null or played_date >= p_from)
    and (p_to is null or played_date <= p_to)
    and (p_rules is null or rules = p_rules)
    and (p_player is null or list_contains(players, p_player));
