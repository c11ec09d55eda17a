-- A player's record against each tablemate: deals and sessions shared, the player's net in
-- those deals, the points that flowed between the two (what the player received from the
-- mate less what went back), and in how many shared sessions the player placed above the
-- mate (placements as in session_placements.sql, ties by seat).
-- The pairs and the transfers in exclusive branches too: with no tablemates from
-- mart_pair_days and mart_flow_days, else from the deals' pairs and transfers.
with pairs as (
    select player, mate, cast(sum(deals) as bigint) as deals, cast(sum(net) as bigint) as net
    from sums_in('mart_pair_days', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where $player is null or player = $player
    group by player, mate
    union all
    select player, mate, count(*) as deals, cast(sum(net) as bigint) as net
    from pairs_in($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0 and ($player is null or player = $player)
    group by player, mate
),

flows as (
    select payee_player as player, payer_player as mate, cast(sum(points) as bigint) as points
    from sums_in('mart_flow_days', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where $player is null or payee_player = $player or payer_player = $player
    group by payee_player, payer_player
    union all
    select payee_player as player, payer_player as mate, cast(sum(amount) as bigint) as points
    from flows_in($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0
        and ($player is null or payee_player = $player or payer_player = $player)
    group by payee_player, payer_player
),

-- the sessions (all, or the player's) in exclusive branches (30_filters.sql): with no
-- tablemates the sessions on one day, club and rule set from mart_pair_places (ranked
-- once), those split over several ranked here from mart_session_days; with tablemates
-- every session ranked here from the deals' seat rows. With no player the IN is dropped
-- when the plan is made instead of being built over every row
split as (
    select distinct session_id
    from sums_in('mart_session_places', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where placement is null
),

session_rows as (
    select d.session_id, d.player, d.seat, d.net
    from sums_in('mart_session_days', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[])) as d
    semi join split as s on d.session_id is not distinct from s.session_id
    union all
    select session_id, player, seat, net
    from seat_deals_in($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0
),

per_session as (
    select session_id, player, min(seat) as seat, cast(sum(net) as bigint) as net
    from (
        select * from session_rows where $player is null
        union all
        select * from session_rows
        where $player is not null and session_id in (select session_id from session_rows where player = $player)
    )
    group by session_id, player
),

ranked as (
    select
        session_id,
        player,
        row_number() over (partition by session_id order by net desc, seat, player) as placement
    from per_session
),

session_parts as (
    select
        a.player,
        b.player as mate,
        count(*) as sessions,
        count(*) filter (where a.placement < b.placement) as placed_above
    from ranked as a
    join ranked as b on a.session_id = b.session_id and a.player <> b.player
    where $player is null or a.player = $player
    group by a.player, b.player
    union all
    select player, mate, cast(sum(sessions) as bigint) as sessions, cast(sum(placed_above) as bigint) as placed_above
    from sums_in('mart_pair_places', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where $player is null or player = $player
    group by player, mate
),

sessions as (
    select player, mate, cast(sum(sessions) as bigint) as sessions, cast(sum(placed_above) as bigint) as placed_above
    from session_parts
    group by player, mate
)

select
    p.player,
    p.mate,
    p.deals,
    coalesce(s.sessions, 0) as sessions,
    coalesce(s.placed_above, 0) as placed_above,
    case when s.sessions > 0 then s.placed_above / s.sessions end as placed_above_rate,
    p.net,
    p.net / p.deals as net_per_deal,
    coalesce(got.points, 0) - coalesce(gave.points, 0) as net_between
from pairs as p
left join sessions as s on s.player = p.player and s.mate = p.mate
left join flows as got on got.player = p.player and got.mate = p.mate
left join flows as gave on gave.player = p.mate and gave.mate = p.player
order by p.player, p.deals desc, p.mate;
