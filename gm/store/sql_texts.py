"""SQL compiled ahead by gm.store.sql.write_texts: do not edit; write it again."""
# ruff: noqa: E501

TEXTS = {
    '0172186532d358fbf39f3daa2ec0afe1938fdae7': {
        'sqlite': ('INSERT INTO game_settings (game_id, "key", value) VALUES (:game_id, :key, :value) ON CONFLICT (game_id, "key") DO UPDATE SET value = excluded.value', {}),
        'postgresql': ('INSERT INTO game_settings (game_id, key, value) VALUES (%(game_id)s, %(key)s, %(value)s) ON CONFLICT (game_id, key) DO UPDATE SET value = excluded.value', {}),
    },
    '022c937fa7c8f38709c944ba63e59ebe64c37038': {
        'sqlite': ('DELETE FROM draw_proposals WHERE draw_proposals.game_id = :game', {}),
        'postgresql': ('DELETE FROM draw_proposals WHERE draw_proposals.game_id = %(game)s', {}),
    },
    '027c5564989b9b07fc50a07aa101a2d9e90858e9': {
        'sqlite': ('SELECT outbox.status, count(*) AS n \nFROM outbox GROUP BY outbox.status', {}),
        'postgresql': ('SELECT outbox.status, count(*) AS n \nFROM outbox GROUP BY outbox.status', {}),
    },
    '03ccc65818fcbf8527dfa883f6487115b030e22b': {
        'sqlite': ('DELETE FROM absences WHERE absences.game_id = :game', {}),
        'postgresql': ('DELETE FROM absences WHERE absences.game_id = %(game)s', {}),
    },
    '042da33f88c7f578a1978fbb117f00e128837320': {
        'sqlite': ('SELECT games.id \nFROM games \nWHERE games.status = :status_1', {'status_1': 'active'}),
        'postgresql': ('SELECT games.id \nFROM games \nWHERE games.status = %(status_1)s', {'status_1': 'active'}),
    },
    '04a8aec133eb2710ddbccd0da8760d22e391c15b': {
        'sqlite': ('DELETE FROM address_codes WHERE address_codes.game_id = :game', {}),
        'postgresql': ('DELETE FROM address_codes WHERE address_codes.game_id = %(game)s', {}),
    },
    '0806349da0a337f4ee140bbefc6f31e4dc6b684a': {
        'sqlite': ('SELECT games.id \nFROM games \nWHERE EXISTS (SELECT * \nFROM players \nWHERE players.game_id = games.id AND players.active = :active_1 AND lower(players.email) = lower(:email)) ORDER BY games.created DESC, games.id DESC\n LIMIT :most OFFSET :param_1', {'active_1': 1, 'param_1': 0}),
        'postgresql': ('SELECT games.id \nFROM games \nWHERE EXISTS (SELECT * \nFROM players \nWHERE players.game_id = games.id AND players.active = %(active_1)s AND lower(players.email) = lower(%(email)s)) ORDER BY games.created DESC, games.id DESC \n LIMIT %(most)s', {'active_1': 1}),
    },
    '0b5c1e2e5657e4134a2e9a92b551be382b16937c': {
        'sqlite': ('SELECT max(messages.received) AS at \nFROM messages', {}),
        'postgresql': ('SELECT max(messages.received) AS at \nFROM messages', {}),
    },
    '0bdc03f5f5800632953b0daf657fca572d2b475f': {
        'sqlite': ('INSERT INTO daemons (daemon_id, host, pid, started, last_seen, sending_down_since) VALUES (:me, :on, :process, :at, :now, :down)', {}),
        'postgresql': ('INSERT INTO daemons (daemon_id, host, pid, started, last_seen, sending_down_since) VALUES (%(me)s, %(on)s, %(process)s, %(at)s, %(now)s, %(down)s)', {}),
    },
    '0c4b27f53ac7ad087f4a87d4dbde2f263f2a8bdb': {
        'sqlite': ('DELETE FROM observers WHERE observers.game_id = :game', {}),
        'postgresql': ('DELETE FROM observers WHERE observers.game_id = %(game)s', {}),
    },
    '0ed430985f58e37330b1751bacfb8a714bb6acad': {
        'sqlite': ('SELECT DISTINCT orders.player \nFROM orders \nWHERE orders.game_id = :game AND orders.action = :action_1 AND orders.accepted = :accepted_1 AND orders.seq >= :seq', {'action_1': 'order', 'accepted_1': 1}),
        'postgresql': ('SELECT DISTINCT orders.player \nFROM orders \nWHERE orders.game_id = %(game)s AND orders.action = %(action_1)s AND orders.accepted = %(accepted_1)s AND orders.seq >= %(seq)s', {'action_1': 'order', 'accepted_1': 1}),
    },
    '0f2925f5784ae7e427addcf3bc74f57784c0ca92': {
        'sqlite': ('SELECT game_settings."key", game_settings.value \nFROM game_settings \nWHERE game_settings.game_id = :game', {}),
        'postgresql': ('SELECT game_settings.key, game_settings.value \nFROM game_settings \nWHERE game_settings.game_id = %(game)s', {}),
    },
    '1054be27b8d8da7c5c481457e63cf2a16dbb575f': {
        'sqlite': ('DELETE FROM states WHERE states.game_id = :game', {}),
        'postgresql': ('DELETE FROM states WHERE states.game_id = %(game)s', {}),
    },
    '109bf7a915e6c90c3aab7327a0738bdb948fa204': {
        'sqlite': ('SELECT bounce_holds.start_seq, bounce_holds.seconds \nFROM bounce_holds \nWHERE bounce_holds.game_id = :game AND bounce_holds.player = :player', {}),
        'postgresql': ('SELECT bounce_holds.start_seq, bounce_holds.seconds \nFROM bounce_holds \nWHERE bounce_holds.game_id = %(game)s AND bounce_holds.player = %(player)s', {}),
    },
    '16c2f7d5756e571b184af768f9bf7910c660dec5': {
        'sqlite': ('SELECT daemons.daemon_id, daemons.host, daemons.pid, daemons.started, daemons.last_seen, daemons.sending_down_since, daemons.inbox_handled, daemons.inbox_left, daemons.backlog_since, daemons.took_over_from, daemons.took_over_at \nFROM daemons ORDER BY daemons.started', {}),
        'postgresql': ('SELECT daemons.daemon_id, daemons.host, daemons.pid, daemons.started, daemons.last_seen, daemons.sending_down_since, daemons.inbox_handled, daemons.inbox_left, daemons.backlog_since, daemons.took_over_from, daemons.took_over_at \nFROM daemons ORDER BY daemons.started', {}),
    },
    '16eecd2a437faf08a4dd7b565a19558ed42f524a': {
        'sqlite': ('SELECT outages.id, outages.kind, outages.start, outages.finish, outages.applied \nFROM outages ORDER BY outages.id', {}),
        'postgresql': ('SELECT outages.id, outages.kind, outages.start, outages.finish, outages.applied \nFROM outages ORDER BY outages.id', {}),
    },
    '199cf3aab904508c3d6c8fc3d64869ec262297ad': {
        'sqlite': ('SELECT outbox.recipient \nFROM outbox \nWHERE outbox.game_id = :game AND outbox.turn = :number AND outbox.kind IN (:kind_1_1, :kind_1_2) AND outbox.status IN (:status_1_1, :status_1_2)', {'kind_1_1': 'report', 'kind_1_2': 'welcome', 'status_1_1': 'queued', 'status_1_2': 'held'}),
        'postgresql': ('SELECT outbox.recipient \nFROM outbox \nWHERE outbox.game_id = %(game)s AND outbox.turn = %(number)s AND outbox.kind IN (%(kind_1_1)s, %(kind_1_2)s) AND outbox.status IN (%(status_1_1)s, %(status_1_2)s)', {'kind_1_1': 'report', 'kind_1_2': 'welcome', 'status_1_1': 'queued', 'status_1_2': 'held'}),
    },
    '1b4a7edeca2bad29c3d9a332a941537776e71463': {
        'sqlite': ('DELETE FROM results WHERE results.game_id = :game', {}),
        'postgresql': ('DELETE FROM results WHERE results.game_id = %(game)s', {}),
    },
    '1c46e6fd8a0c8a1c707905c1f6f3fd8d274fcd5a': {
        'sqlite': ('SELECT draw_proposals.player, draw_proposals.turn \nFROM draw_proposals \nWHERE draw_proposals.game_id = :game', {}),
        'postgresql': ('SELECT draw_proposals.player, draw_proposals.turn \nFROM draw_proposals \nWHERE draw_proposals.game_id = %(game)s', {}),
    },
    '1dd4261338be030478f9d4aa09aad0cda794eb60': {
        'sqlite': ('SELECT count(*) AS n \nFROM games', {}),
        'postgresql': ('SELECT count(*) AS n \nFROM games', {}),
    },
    '213990fe9b98bd33d9c5d4612ae657fbe480e1ba': {
        'sqlite': ('DELETE FROM credential_failures WHERE credential_failures.game_id = :game', {}),
        'postgresql': ('DELETE FROM credential_failures WHERE credential_failures.game_id = %(game)s', {}),
    },
    '23161e96ae7ad78a9644d3810b6dbde22fe400f1': {
        'sqlite': ('SELECT states.seq, states.turn \nFROM states \nWHERE states.game_id = :game ORDER BY states.seq', {}),
        'postgresql': ('SELECT states.seq, states.turn \nFROM states \nWHERE states.game_id = %(game)s ORDER BY states.seq', {}),
    },
    '273ca7a47cd4fb1d4a2289045f188634667a305b': {
        'sqlite': ('DELETE FROM draw_proposals WHERE draw_proposals.game_id = :game AND draw_proposals.player = :player', {}),
        'postgresql': ('DELETE FROM draw_proposals WHERE draw_proposals.game_id = %(game)s AND draw_proposals.player = %(player)s', {}),
    },
    '27675536b396333e36ce3c640398b6b0c1eb62f4': {
        'sqlite': ('DELETE FROM credential_locks WHERE credential_locks.game_id = :game', {}),
        'postgresql': ('DELETE FROM credential_locks WHERE credential_locks.game_id = %(game)s', {}),
    },
    '2c72e01bf42188ba52b28f868d6d760a9379e59b': {
        'sqlite': ('SELECT * \nFROM orders \nWHERE orders.game_id = :game AND orders.accepted = :accepted_1 AND orders.seq IS NOT NULL ORDER BY orders.id', {'accepted_1': 1}),
        'postgresql': ('SELECT * \nFROM orders \nWHERE orders.game_id = %(game)s AND orders.accepted = %(accepted_1)s AND orders.seq IS NOT NULL ORDER BY orders.id', {'accepted_1': 1}),
    },
    '2cbd6584f038fc160db712b0ac2cc776c7a76556': {
        'sqlite': ('SELECT * \nFROM history \nWHERE history.game_id = :game ORDER BY history.id', {}),
        'postgresql': ('SELECT * \nFROM history \nWHERE history.game_id = %(game)s ORDER BY history.id', {}),
    },
    '2fd3832283821ee5416f1b91da5204b77f2ceb5e': {
        'sqlite': ('UPDATE daemons SET took_over_from=:dead, took_over_at=:now WHERE daemons.daemon_id = :me', {}),
        'postgresql': ('UPDATE daemons SET took_over_from=%(dead)s, took_over_at=%(now)s WHERE daemons.daemon_id = %(me)s', {}),
    },
    '308c1701797c014ddf0f1bb208f3c7486e6db810': {
        'sqlite': ('SELECT outages.id, outages.kind, outages.start, outages.finish, outages.applied \nFROM outages \nWHERE outages.kind = :what AND outages.finish IS NULL ORDER BY outages.id', {}),
        'postgresql': ('SELECT outages.id, outages.kind, outages.start, outages.finish, outages.applied \nFROM outages \nWHERE outages.kind = %(what)s AND outages.finish IS NULL ORDER BY outages.id', {}),
    },
    '32af15c1f76e934b8dbd6efca0ff2cb65df73ce0': {
        'sqlite': ('DELETE FROM draw_proposals WHERE draw_proposals.game_id = :game', {}),
        'postgresql': ('DELETE FROM draw_proposals WHERE draw_proposals.game_id = %(game)s', {}),
    },
    '33347fb113a3dc298770a64020f6aea82e364c27': {
        'sqlite': ('SELECT daemons.daemon_id, daemons.host, daemons.pid, daemons.started, daemons.last_seen, daemons.sending_down_since, daemons.inbox_handled, daemons.inbox_left, daemons.backlog_since, daemons.took_over_from, daemons.took_over_at \nFROM daemons \nWHERE daemons.daemon_id = :me', {}),
        'postgresql': ('SELECT daemons.daemon_id, daemons.host, daemons.pid, daemons.started, daemons.last_seen, daemons.sending_down_since, daemons.inbox_handled, daemons.inbox_left, daemons.backlog_since, daemons.took_over_from, daemons.took_over_at \nFROM daemons \nWHERE daemons.daemon_id = %(me)s', {}),
    },
    '3985e37b8fc80542b41a9bc11065bf88e3c0bd9b': {
        'sqlite': ('DELETE FROM timers WHERE timers.game_id = :game', {}),
        'postgresql': ('DELETE FROM timers WHERE timers.game_id = %(game)s', {}),
    },
    '3a2128377b5ca99d623b63e6da3263031e94544b': {
        'sqlite': ('UPDATE daemons SET inbox_handled=:handled, inbox_left=:left, backlog_since=:since WHERE daemons.daemon_id = :me', {}),
        'postgresql': ('UPDATE daemons SET inbox_handled=%(handled)s, inbox_left=%(left)s, backlog_since=%(since)s WHERE daemons.daemon_id = %(me)s', {}),
    },
    '3ab561deb232c12993dd20a4137759a76175c9f3': {
        'sqlite': ('SELECT max(outbox.created) AS at \nFROM outbox', {}),
        'postgresql': ('SELECT max(outbox.created) AS at \nFROM outbox', {}),
    },
    '4358e6cbcb33efb1d33b45b2782ccf1bef05ae14': {
        'sqlite': ('SELECT * \nFROM players \nWHERE players.game_id = :game ORDER BY players.seat', {}),
        'postgresql': ('SELECT * \nFROM players \nWHERE players.game_id = %(game)s ORDER BY players.seat', {}),
    },
    '4479a36917d1b4db7070bbfbac7b5ec97d018757': {
        'sqlite': ('SELECT * \nFROM states \nWHERE states.game_id = :game AND states.seq = :seq', {}),
        'postgresql': ('SELECT * \nFROM states \nWHERE states.game_id = %(game)s AND states.seq = %(seq)s', {}),
    },
    '46570687100f80966b0d0e9ee47355287f597e69': {
        'sqlite': ('SELECT orders.id, orders.accepted \nFROM orders \nWHERE orders.id > :after ORDER BY orders.id', {}),
        'postgresql': ('SELECT orders.id, orders.accepted \nFROM orders \nWHERE orders.id > %(after)s ORDER BY orders.id', {}),
    },
    '49226f8ffb79dd290880e565205e10738e648012': {
        'sqlite': ('DELETE FROM state_overrides WHERE state_overrides.game_id = :game', {}),
        'postgresql': ('DELETE FROM state_overrides WHERE state_overrides.game_id = %(game)s', {}),
    },
    '4930e54d637cb13392ae97c13caa1af31d742154': {
        'sqlite': ('SELECT * \nFROM games ORDER BY games.created, games.id', {}),
        'postgresql': ('SELECT * \nFROM games ORDER BY games.created, games.id', {}),
    },
    '4db5e3c73a70e61ac329af269f85dce97f3874bf': {
        'sqlite': ('SELECT outages.id, outages.kind, outages.start, outages.finish, outages.applied \nFROM outages \nWHERE outages.finish IS NOT NULL AND outages.applied = :applied_1 ORDER BY outages.start', {'applied_1': 0}),
        'postgresql': ('SELECT outages.id, outages.kind, outages.start, outages.finish, outages.applied \nFROM outages \nWHERE outages.finish IS NOT NULL AND outages.applied = %(applied_1)s ORDER BY outages.start', {'applied_1': 0}),
    },
    '52620a9c134a50d9741700e65df65dc85c2a7eea': {
        'sqlite': ('SELECT players.pw_hash \nFROM players \nWHERE players.game_id = :game AND lower(players.email) = :email', {}),
        'postgresql': ('SELECT players.pw_hash \nFROM players \nWHERE players.game_id = %(game)s AND lower(players.email) = %(email)s', {}),
    },
    '56538ec667852d17212fd4704041b2e2943c6a04': {
        'sqlite': ('SELECT min(outages.start) AS since \nFROM outages \nWHERE outages.finish IS NULL', {}),
        'postgresql': ('SELECT min(outages.start) AS since \nFROM outages \nWHERE outages.finish IS NULL', {}),
    },
    '59636a7b1df0301a6e2d67042c194f834fa0a497': {
        'sqlite': ('SELECT state_overrides.seq \nFROM state_overrides \nWHERE state_overrides.game_id = :game', {}),
        'postgresql': ('SELECT state_overrides.seq \nFROM state_overrides \nWHERE state_overrides.game_id = %(game)s', {}),
    },
    '5d100534528ac3a45d282f7987b646e84b423d55': {
        'sqlite': ('UPDATE outages SET applied=:applied WHERE outages.id = :outage', {'applied': 1}),
        'postgresql': ('UPDATE outages SET applied=%(applied)s WHERE outages.id = %(outage)s', {'applied': 1}),
    },
    '5d2508f8598d41232148ec2c302bdfa1537d7aaa': {
        'sqlite': ('SELECT count(*) AS n \nFROM outbox \nWHERE outbox.status = :status_1 AND outbox.sent >= :since', {'status_1': 'sent'}),
        'postgresql': ('SELECT count(*) AS n \nFROM outbox \nWHERE outbox.status = %(status_1)s AND outbox.sent >= %(since)s', {'status_1': 'sent'}),
    },
    '6095a56dd8329cb5d90844b50f30c2f0d0924e0a': {
        'sqlite': ('INSERT INTO results (game_id, reason, winners, at) VALUES (:game_id, :reason, :winners, :at) ON CONFLICT (game_id) DO UPDATE SET reason = excluded.reason, winners = excluded.winners, at = excluded.at', {}),
        'postgresql': ('INSERT INTO results (game_id, reason, winners, at) VALUES (%(game_id)s, %(reason)s, %(winners)s, %(at)s) ON CONFLICT (game_id) DO UPDATE SET reason = excluded.reason, winners = excluded.winners, at = excluded.at', {}),
    },
    '60dcfcd3c055808013451b65044a40c5c4967511': {
        'sqlite': ('SELECT orders.id \nFROM orders \nWHERE orders.game_id = :game AND orders.accepted = :accepted_1 AND orders.seq > :seq', {'accepted_1': 1}),
        'postgresql': ('SELECT orders.id \nFROM orders \nWHERE orders.game_id = %(game)s AND orders.accepted = %(accepted_1)s AND orders.seq > %(seq)s', {'accepted_1': 1}),
    },
    '6289bfba4473a815ab015496e9f2c62b5f2f89e7': {
        'sqlite': ('DELETE FROM results WHERE results.game_id = :game', {}),
        'postgresql': ('DELETE FROM results WHERE results.game_id = %(game)s', {}),
    },
    '635e250ef3c1fb3d95c86fd6ebcae4e12e62f1b0': {
        'sqlite': ('UPDATE outages SET finish=:ended WHERE outages.id = :outage', {}),
        'postgresql': ('UPDATE outages SET finish=%(ended)s WHERE outages.id = %(outage)s', {}),
    },
    '6a842a5d0441c44339e6f44b96ca72665c7aff70': {
        'sqlite': ('DELETE FROM bounce_holds WHERE bounce_holds.game_id = :game', {}),
        'postgresql': ('DELETE FROM bounce_holds WHERE bounce_holds.game_id = %(game)s', {}),
    },
    '6d9473f12649498efa013c5373b632825134b45f': {
        'sqlite': ('INSERT INTO address_settings (address, format, timezone, updated) VALUES (:address, :format, :timezone, :updated) ON CONFLICT (address) DO UPDATE SET format = excluded.format, timezone = excluded.timezone, updated = excluded.updated', {}),
        'postgresql': ('INSERT INTO address_settings (address, format, timezone, updated) VALUES (%(address)s, %(format)s, %(timezone)s, %(updated)s) ON CONFLICT (address) DO UPDATE SET format = excluded.format, timezone = excluded.timezone, updated = excluded.updated', {}),
    },
    '6dc8a8d231266d5ed032650db2f6da1f4fe9c73a': {
        'sqlite': ('SELECT count(*) AS n \nFROM orders \nWHERE orders.game_id = :game AND orders.action = :action_1 AND orders.accepted = :accepted_1', {'action_1': 'order', 'accepted_1': 1}),
        'postgresql': ('SELECT count(*) AS n \nFROM orders \nWHERE orders.game_id = %(game)s AND orders.action = %(action_1)s AND orders.accepted = %(accepted_1)s', {'action_1': 'order', 'accepted_1': 1}),
    },
    '6fb5ea27a0e4d4e93cffb298678b67cd65957baa': {
        'sqlite': ('SELECT absences.player, absences.start, absences."end" \nFROM absences \nWHERE absences.game_id = :game', {}),
        'postgresql': ('SELECT absences.player, absences.start, absences."end" \nFROM absences \nWHERE absences.game_id = %(game)s', {}),
    },
    '7033066a09fdf53a8011d02a2f5069db3fe933d8': {
        'sqlite': ('SELECT states.seq, states.turn, states.created, EXISTS (SELECT * \nFROM state_overrides \nWHERE state_overrides.game_id = states.game_id AND state_overrides.seq = states.seq) AS overridden \nFROM states \nWHERE states.game_id = :game ORDER BY states.seq DESC', {}),
        'postgresql': ('SELECT states.seq, states.turn, states.created, EXISTS (SELECT * \nFROM state_overrides \nWHERE state_overrides.game_id = states.game_id AND state_overrides.seq = states.seq) AS overridden \nFROM states \nWHERE states.game_id = %(game)s ORDER BY states.seq DESC', {}),
    },
    '73df943248c47a4a14f4dd31fa9ac837fce4b06d': {
        'sqlite': ('DELETE FROM games WHERE games.id = :game', {}),
        'postgresql': ('DELETE FROM games WHERE games.id = %(game)s', {}),
    },
    '73eb783f408f19dd895564144029c056f7ff8c03': {
        'sqlite': ('SELECT max(games.updated) AS at \nFROM games', {}),
        'postgresql': ('SELECT max(games.updated) AS at \nFROM games', {}),
    },
    '7e05d9488363cddd216aef1f99c75146c13c5650': {
        'sqlite': ('SELECT deadlines.game_id \nFROM deadlines JOIN games ON games.id = deadlines.game_id \nWHERE games.status = :status_1 AND deadlines.due IS NOT NULL AND deadlines.due <= :by AND deadlines.grace_done = :grace_done_1 ORDER BY deadlines.game_id', {'status_1': 'active', 'grace_done_1': 0}),
        'postgresql': ('SELECT deadlines.game_id \nFROM deadlines JOIN games ON games.id = deadlines.game_id \nWHERE games.status = %(status_1)s AND deadlines.due IS NOT NULL AND deadlines.due <= %(by)s AND deadlines.grace_done = %(grace_done_1)s ORDER BY deadlines.game_id', {'status_1': 'active', 'grace_done_1': 0}),
    },
    '835ff74ea31ad322c2b0be5a5d40793e9eb6805b': {
        'sqlite': ('SELECT min(daemons.sending_down_since) AS since \nFROM daemons \nWHERE daemons.last_seen >= :seen_after AND daemons.sending_down_since IS NOT NULL', {}),
        'postgresql': ('SELECT min(daemons.sending_down_since) AS since \nFROM daemons \nWHERE daemons.last_seen >= %(seen_after)s AND daemons.sending_down_since IS NOT NULL', {}),
    },
    '8486a4e393cbab0921c8f5edb828732dae487f5a': {
        'sqlite': ('DELETE FROM orders WHERE orders.game_id = :game', {}),
        'postgresql': ('DELETE FROM orders WHERE orders.game_id = %(game)s', {}),
    },
    '86b405815b2790f97dedb0d45e7cef6b76357136': {
        'sqlite': ('SELECT count(*) AS n \nFROM messages \nWHERE messages.outcome = :outcome_1 AND messages.received >= :since', {'outcome_1': 'error'}),
        'postgresql': ('SELECT count(*) AS n \nFROM messages \nWHERE messages.outcome = %(outcome_1)s AND messages.received >= %(since)s', {'outcome_1': 'error'}),
    },
    '881fca02129806702f91e7e66579d8a2b77ba5f5': {
        'sqlite': ('DELETE FROM reports WHERE reports.game_id = :game', {}),
        'postgresql': ('DELETE FROM reports WHERE reports.game_id = %(game)s', {}),
    },
    '8a2b113d9bf273f6708e3716c6ffa93f6c1e6d04': {
        'sqlite': ('SELECT players.game_id, players.name \nFROM players \nWHERE lower(players.email) = lower(:email)', {}),
        'postgresql': ('SELECT players.game_id, players.name \nFROM players \nWHERE lower(players.email) = lower(%(email)s)', {}),
    },
    '8cf94f8e77497c4975b5900d88db74aabc17d1b7': {
        'sqlite': ('SELECT timers.due \nFROM timers \nWHERE timers.game_id = :game', {}),
        'postgresql': ('SELECT timers.due \nFROM timers \nWHERE timers.game_id = %(game)s', {}),
    },
    '8dcf59202e54c4979e10edbf5ab34dee57798e53': {
        'sqlite': ('DELETE FROM players WHERE players.game_id = :game', {}),
        'postgresql': ('DELETE FROM players WHERE players.game_id = %(game)s', {}),
    },
    '93eab53b83df1e59b2c06b775fabfbde2a30a3a4': {
        'sqlite': ('SELECT (SELECT max(messages.id) AS max_1 \nFROM messages) AS messages, (SELECT max(orders.id) AS max_2 \nFROM orders) AS orders, (SELECT max(delivery_events.id) AS max_3 \nFROM delivery_events) AS events', {}),
        'postgresql': ('SELECT (SELECT max(messages.id) AS max_1 \nFROM messages) AS messages, (SELECT max(orders.id) AS max_2 \nFROM orders) AS orders, (SELECT max(delivery_events.id) AS max_3 \nFROM delivery_events) AS events', {}),
    },
    '946717883412180c37d0e13963c41bb5de8518f6': {
        'sqlite': ('DELETE FROM history WHERE history.game_id = :game', {}),
        'postgresql': ('DELETE FROM history WHERE history.game_id = %(game)s', {}),
    },
    '94ef3e1570dc6654523fcd9dddb3701c34a90022': {
        'sqlite': ('SELECT timers.game_id, timers.due \nFROM timers ORDER BY timers.due, timers.game_id\n LIMIT :most OFFSET :param_1', {'param_1': 0}),
        'postgresql': ('SELECT timers.game_id, timers.due \nFROM timers ORDER BY timers.due, timers.game_id \n LIMIT %(most)s', {}),
    },
    '98a46d7a6fc8c70963a642ae719ca5ec712ebf6e': {
        'sqlite': ('SELECT * \nFROM states \nWHERE states.game_id = :game ORDER BY states.seq DESC\n LIMIT :param_1 OFFSET :param_2', {'param_1': 1, 'param_2': 0}),
        'postgresql': ('SELECT * \nFROM states \nWHERE states.game_id = %(game)s ORDER BY states.seq DESC \n LIMIT %(param_1)s', {'param_1': 1}),
    },
    '9ed2e8da8241fa7bc6c6184b4237b54f80223125': {
        'sqlite': ('SELECT * \nFROM results \nWHERE results.game_id = :game', {}),
        'postgresql': ('SELECT * \nFROM results \nWHERE results.game_id = %(game)s', {}),
    },
    '9f4dfe5c7ac08d43fd7e365e3f224ae184fcae80': {
        'sqlite': ('SELECT max(daemons.last_seen) AS at \nFROM daemons', {}),
        'postgresql': ('SELECT max(daemons.last_seen) AS at \nFROM daemons', {}),
    },
    'a0f4d429de1191872338d65724ae2344a2698a88': {
        'sqlite': ('SELECT * \nFROM games \nWHERE games.id = :game', {}),
        'postgresql': ('SELECT * \nFROM games \nWHERE games.id = %(game)s', {}),
    },
    'a1269941b2855ca158fcc2d359ed08444fd27e99': {
        'sqlite': ('SELECT messages.id, messages.outcome \nFROM messages \nWHERE messages.id > :after ORDER BY messages.id', {}),
        'postgresql': ('SELECT messages.id, messages.outcome \nFROM messages \nWHERE messages.id > %(after)s ORDER BY messages.id', {}),
    },
    'a25f4661b34d5b40a6f7ab59a3c177ad8f188b5b': {
        'sqlite': ('SELECT states.seq, states.state, states.state_packing \nFROM states \nWHERE states.game_id = :game ORDER BY states.seq', {}),
        'postgresql': ('SELECT states.seq, states.state, states.state_packing \nFROM states \nWHERE states.game_id = %(game)s ORDER BY states.seq', {}),
    },
    'ac92d3ca457bf2125ea89ac09d2e7f5a84ccbe9a': {
        'sqlite': ('SELECT * \nFROM deadlines \nWHERE deadlines.game_id = :game', {}),
        'postgresql': ('SELECT * \nFROM deadlines \nWHERE deadlines.game_id = %(game)s', {}),
    },
    'af957674db024f92e56ff59ba00617c77c3e24fb': {
        'sqlite': ('DELETE FROM game_settings WHERE game_settings.game_id = :game', {}),
        'postgresql': ('DELETE FROM game_settings WHERE game_settings.game_id = %(game)s', {}),
    },
    'bd724abeaa2f49d4b3de06761a0fdf64f9b44b3b': {
        'sqlite': ('SELECT delivery_events.id, delivery_events.permanent \nFROM delivery_events \nWHERE delivery_events.id > :after ORDER BY delivery_events.id', {}),
        'postgresql': ('SELECT delivery_events.id, delivery_events.permanent \nFROM delivery_events \nWHERE delivery_events.id > %(after)s ORDER BY delivery_events.id', {}),
    },
    'be58dda13762fcd6636b2082474752703210db5a': {
        'sqlite': ('DELETE FROM deadlines WHERE deadlines.game_id = :game', {}),
        'postgresql': ('DELETE FROM deadlines WHERE deadlines.game_id = %(game)s', {}),
    },
    'c01e46069ffd8d54ce923772070f8668978da9d3': {
        'sqlite': ('UPDATE daemons SET last_seen=:now, sending_down_since=:down WHERE daemons.daemon_id = :me', {}),
        'postgresql': ('UPDATE daemons SET last_seen=%(now)s, sending_down_since=%(down)s WHERE daemons.daemon_id = %(me)s', {}),
    },
    'c569272859cb0bf3a9c90db62b77e186ec6736fd': {
        'sqlite': ('SELECT * \nFROM state_overrides \nWHERE state_overrides.game_id = :game', {}),
        'postgresql': ('SELECT * \nFROM state_overrides \nWHERE state_overrides.game_id = %(game)s', {}),
    },
    'c816446c0483f5827d7c63b8c6c916afaab182dc': {
        'sqlite': ('SELECT * \nFROM address_settings \nWHERE address_settings.address = :address', {}),
        'postgresql': ('SELECT * \nFROM address_settings \nWHERE address_settings.address = %(address)s', {}),
    },
    'ca31472868be4f9b3390b25a462a53af54f0b00c': {
        'sqlite': ('SELECT min(outbox.created) AS at \nFROM outbox \nWHERE outbox.status = :status_1', {'status_1': 'queued'}),
        'postgresql': ('SELECT min(outbox.created) AS at \nFROM outbox \nWHERE outbox.status = %(status_1)s', {'status_1': 'queued'}),
    },
    'd1de4148e70bf3e6f67749d7219bee8820d6b59f': {
        'sqlite': ('DELETE FROM open_games WHERE open_games.game_id = :game', {}),
        'postgresql': ('DELETE FROM open_games WHERE open_games.game_id = %(game)s', {}),
    },
    'd8aaa236d8f4801469b71a4591f6b615e9a26c9d': {
        'sqlite': ('SELECT orders.player, orders.origin \nFROM orders \nWHERE orders.game_id = :game AND orders.action = :action_1 AND orders.accepted = :accepted_1 AND orders.seq >= :seq ORDER BY orders.id', {'action_1': 'order', 'accepted_1': 1}),
        'postgresql': ('SELECT orders.player, orders.origin \nFROM orders \nWHERE orders.game_id = %(game)s AND orders.action = %(action_1)s AND orders.accepted = %(accepted_1)s AND orders.seq >= %(seq)s ORDER BY orders.id', {'action_1': 'order', 'accepted_1': 1}),
    },
    'dcf88d25c1606033881c26c30937f2945304994a': {
        'sqlite': ('SELECT * \nFROM games ORDER BY games.created DESC, games.id DESC\n LIMIT :most OFFSET :param_1', {'param_1': 0}),
        'postgresql': ('SELECT * \nFROM games ORDER BY games.created DESC, games.id DESC \n LIMIT %(most)s', {}),
    },
    'de406f260b69548dfd0a7685c888a78dbc6e4b61': {
        'sqlite': ('INSERT INTO draw_proposals (game_id, player, turn, made) VALUES (:game_id, :player, :turn, :made) ON CONFLICT (game_id, player) DO UPDATE SET turn = excluded.turn, made = excluded.made', {}),
        'postgresql': ('INSERT INTO draw_proposals (game_id, player, turn, made) VALUES (%(game_id)s, %(player)s, %(turn)s, %(made)s) ON CONFLICT (game_id, player) DO UPDATE SET turn = excluded.turn, made = excluded.made', {}),
    },
    'e33f40f1a623884c08e7be1e7e2796dad340a461': {
        'sqlite': ('SELECT max(daemons.last_seen) AS at \nFROM daemons', {}),
        'postgresql': ('SELECT max(daemons.last_seen) AS at \nFROM daemons', {}),
    },
    'e5f2e08cd912ba1047244131ca913ea94e2f3538': {
        'sqlite': ('SELECT max(states.created) AS at \nFROM states \nWHERE states.game_id = :game', {}),
        'postgresql': ('SELECT max(states.created) AS at \nFROM states \nWHERE states.game_id = %(game)s', {}),
    },
    'e6d05d83c6497e94ca447d704ab93bd68ade77f1': {
        'sqlite': ('SELECT timers.game_id \nFROM timers \nWHERE timers.due <= :now ORDER BY timers.due, timers.game_id', {}),
        'postgresql': ('SELECT timers.game_id \nFROM timers \nWHERE timers.due <= %(now)s ORDER BY timers.due, timers.game_id', {}),
    },
    'e826718d092271efa3e067164c40df79925abfb3': {
        'sqlite': ('INSERT INTO timers (game_id, due) VALUES (:game_id, :due) ON CONFLICT (game_id) DO UPDATE SET due = excluded.due', {}),
        'postgresql': ('INSERT INTO timers (game_id, due) VALUES (%(game_id)s, %(due)s) ON CONFLICT (game_id) DO UPDATE SET due = excluded.due', {}),
    },
    'e92c355b576922323ae15110ed8e93cd61ad5b3d': {
        'sqlite': ('DELETE FROM timers WHERE timers.game_id = :game', {}),
        'postgresql': ('DELETE FROM timers WHERE timers.game_id = %(game)s', {}),
    },
    'ec5144d3c08fdbe6bed023d33582632981ba47d5': {
        'sqlite': ('SELECT * \nFROM players \nWHERE players.game_id = :game AND lower(players.name) = lower(:name)', {}),
        'postgresql': ('SELECT * \nFROM players \nWHERE players.game_id = %(game)s AND lower(players.name) = lower(%(name)s)', {}),
    },
    'f7391ab4065e327109c036b69ff9a43441da6768': {
        'sqlite': ('DELETE FROM daemons WHERE daemons.last_seen < :before', {}),
        'postgresql': ('DELETE FROM daemons WHERE daemons.last_seen < %(before)s', {}),
    },
}
