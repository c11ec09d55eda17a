-- How often each pattern comes up per win, per player, beside the club's (all players
-- under the same filters): the base pattern (平胡, 对对胡, 清一色, 七对...) and each extra
-- (根 counted once per win that has one, 杠上花, 海底...). `rate` = wins with it / wins;
-- every pattern of the club is listed for every player, with 0 where they have none.
-- Two exclusive branches (30_filters.sql): with no tablemates the counts come from
-- mart_pattern_days and mart_player_days (per player and day), else from the deals' seat rows.
with wins as (
    select player, deal_id, seat, base_pattern, extras
    from seat_deals_in($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0 and won
),

patterns as (
    select player, base_pattern as pattern, 'base' as kind, deal_id, seat
    from wins
    where base_pattern is not null
    union all
    select distinct player, unnest(extras) as pattern, 'extra' as kind, deal_id, seat
    from wins
),

player_wins as (
    select player, cast(sum(wins) as bigint) as wins
    from sums_in('mart_player_days', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    group by player
    having sum(wins) > 0
    union all
    select player, count(*) as wins from wins group by player
),

mine as (
    select player, pattern, kind, cast(sum(hits) as bigint) as hits
    from sums_in('mart_pattern_days', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    group by player, pattern, kind
    union all
    select player, pattern, kind, count(*) as hits
    from patterns
    group by player, pattern, kind
),

club as (
    select pattern, kind, cast(sum(hits) as bigint) as club_hits
    from mine
    group by pattern, kind
),

club_wins as (
    select cast(coalesce(sum(wins), 0) as bigint) as wins from player_wins
)

-- every pattern the club has, for every player with a win (0 where the player has none)
select
    w.player,
    c.pattern,
    c.kind,
    coalesce(m.hits, 0) as hits,
    w.wins,
    coalesce(m.hits, 0) / w.wins as rate,
    c.club_hits,
    (select wins from club_wins) as club_wins,
    c.club_hits / (select wins from club_wins) as club_rate
from player_wins as w
cross join club as c
left join mine as m on m.player = w.player and m.pattern = c.pattern and m.kind = c.kind
where $player is null or w.player = $player
order by w.player, c.kind, c.club_hits desc, c.pattern;
