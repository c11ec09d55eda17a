-- How often each pattern comes up per win, per player, beside the club's (all players
-- under the same filters): the base pattern (平胡, 对对胡, 清一色, 七对...) and each extra
-- (根 counted once per win that has one, 杠上花, 海底...). `rate` = wins with it / wins;
-- every pattern of the club is listed for every player, with 0 where they have none.
with wins as (
    select player, deal_id, seat, base_pattern, extras
    from seat_deals_in($club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
    where won
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
    select player, count(*) as wins from wins group by player
),

club as (
    select pattern, kind, count(*) as club_hits
    from patterns
    group by pattern, kind
),

mine as (
    select player, pattern, kind, count(*) as hits
    from patterns
    group by player, pattern, kind
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
    (select count(*) from wins) as club_wins,
    c.club_hits / (select count(*) from wins) as club_rate
from player_wins as w
cross join club as c
left join mine as m on m.player = w.player and m.pattern = c.pattern and m.kind = c.kind
where $player is null or w.player = $player
order by w.player, c.kind, c.club_hits desc, c.pattern;
