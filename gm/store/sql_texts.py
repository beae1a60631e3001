"""SQL compiled ahead by gm.store.sql.write_texts: do not edit; write it again."""
# ruff: noqa: E501

TEXTS = {
    '030a0e3706999e6fead86350b4af51f938d6e955': {
        'sqlite': ('DELETE FROM deadlines WHERE deadlines.game_id = :game', {}),
        'postgresql': ('DELETE FROM deadlines WHERE deadlines.game_id = %(game)s', {}),
    },
    '05ffe652f8fbce697db953735e05d07934727223': {
        'sqlite': ('SELECT daemons.daemon_id, daemons.host, daemons.pid, daemons.started, daemons.last_seen, daemons.sending_down_since, daemons.inbox_handled, daemons.inbox_left, daemons.backlog_since, daemons.took_over_from, daemons.took_over_at \nFROM daemons ORDER BY daemons.started', {}),
        'postgresql': ('SELECT daemons.daemon_id, daemons.host, daemons.pid, daemons.started, daemons.last_seen, daemons.sending_down_since, daemons.inbox_handled, daemons.inbox_left, daemons.backlog_since, daemons.took_over_from, daemons.took_over_at \nFROM daemons ORDER BY daemons.started', {}),
    },
    '0b96f94c98550e9e562e4dcc39e4fe3ee9ea04e6': {
        'sqlite': ('SELECT players.game_id, players.name \nFROM players \nWHERE lower(players.email) = lower(:email)', {}),
        'postgresql': ('SELECT players.game_id, players.name \nFROM players \nWHERE lower(players.email) = lower(%(email)s)', {}),
    },
    '0cab2a7fd173638670d587f2727b31f709548565': {
        'sqlite': ('SELECT draw_proposals.player, draw_proposals.turn \nFROM draw_proposals \nWHERE draw_proposals.game_id = :game', {}),
        'postgresql': ('SELECT draw_proposals.player, draw_proposals.turn \nFROM draw_proposals \nWHERE draw_proposals.game_id = %(game)s', {}),
    },
    '0edca1e03b1eba2315ba20ac47ade5da9aae8ed5': {
        'sqlite': ('UPDATE daemons SET last_seen=:now, sending_down_since=:down WHERE daemons.daemon_id = :me', {}),
        'postgresql': ('UPDATE daemons SET last_seen=%(now)s, sending_down_since=%(down)s WHERE daemons.daemon_id = %(me)s', {}),
    },
    '0ef777b5f5d7d9948637bbdfed3be110e1fa618c': {
        'sqlite': ('SELECT daemons.daemon_id, daemons.host, daemons.pid, daemons.started, daemons.last_seen, daemons.sending_down_since, daemons.inbox_handled, daemons.inbox_left, daemons.backlog_since, daemons.took_over_from, daemons.took_over_at \nFROM daemons \nWHERE daemons.daemon_id = :me', {}),
        'postgresql': ('SELECT daemons.daemon_id, daemons.host, daemons.pid, daemons.started, daemons.last_seen, daemons.sending_down_since, daemons.inbox_handled, daemons.inbox_left, daemons.backlog_since, daemons.took_over_from, daemons.took_over_at \nFROM daemons \nWHERE daemons.daemon_id = %(me)s', {}),
    },
    '100caf1d50a2a172dc70215e1ab8642e98781640': {
        'sqlite': ('SELECT address_settings.address, address_settings.format, address_settings.timezone, address_settings.updated \nFROM address_settings \nWHERE address_settings.address = :address', {}),
        'postgresql': ('SELECT address_settings.address, address_settings.format, address_settings.timezone, address_settings.updated \nFROM address_settings \nWHERE address_settings.address = %(address)s', {}),
    },
    '15b61d70d79c61ed69b494c4ca7dd5078f40ab5c': {
        'sqlite': ('SELECT states.game_id, states.seq, states.turn, states.state, states.created, states.state_packing \nFROM states \nWHERE states.game_id = :game ORDER BY states.seq DESC\n LIMIT :param_1 OFFSET :param_2', {'param_1': 1, 'param_2': 0}),
        'postgresql': ('SELECT states.game_id, states.seq, states.turn, states.state, states.created, states.state_packing \nFROM states \nWHERE states.game_id = %(game)s ORDER BY states.seq DESC \n LIMIT %(param_1)s', {'param_1': 1}),
    },
    '15bff5d8ab757b2b82a668a1f019e48f088b233a': {
        'sqlite': ('INSERT INTO draw_proposals (game_id, player, turn, made) VALUES (:game_id, :player, :turn, :made) ON CONFLICT (game_id, player) DO UPDATE SET turn = excluded.turn, made = excluded.made', {}),
        'postgresql': ('INSERT INTO draw_proposals (game_id, player, turn, made) VALUES (%(game_id)s, %(player)s, %(turn)s, %(made)s) ON CONFLICT (game_id, player) DO UPDATE SET turn = excluded.turn, made = excluded.made', {}),
    },
    '16d0d2cb0b47e5b2884599bb80eeaba84f08d95c': {
        'sqlite': ('UPDATE daemons SET took_over_from=:dead, took_over_at=:now WHERE daemons.daemon_id = :me', {}),
        'postgresql': ('UPDATE daemons SET took_over_from=%(dead)s, took_over_at=%(now)s WHERE daemons.daemon_id = %(me)s', {}),
    },
    '25e9645aafdea0dfb390e5d7ffea71837df6bdef': {
        'sqlite': ('DELETE FROM open_games WHERE open_games.game_id = :game', {}),
        'postgresql': ('DELETE FROM open_games WHERE open_games.game_id = %(game)s', {}),
    },
    '268ccdaf4f56b37c779210cd7920a53afc7e92ec': {
        'sqlite': ('SELECT outages.id, outages.kind, outages.start, outages.finish, outages.applied \nFROM outages \nWHERE outages.finish IS NOT NULL AND outages.applied = :applied_1 ORDER BY outages.start', {'applied_1': 0}),
        'postgresql': ('SELECT outages.id, outages.kind, outages.start, outages.finish, outages.applied \nFROM outages \nWHERE outages.finish IS NOT NULL AND outages.applied = %(applied_1)s ORDER BY outages.start', {'applied_1': 0}),
    },
    '28670d2d2cfedac3f1b084da15b25403b971030c': {
        'sqlite': ('DELETE FROM states WHERE states.game_id = :game', {}),
        'postgresql': ('DELETE FROM states WHERE states.game_id = %(game)s', {}),
    },
    '2bb5c5d2c43aa9f6bf9bfb419b52449c18ac49a4': {
        'sqlite': ('SELECT orders.id, orders.game_id, orders.action, orders.player, orders.turn, orders.text, orders.canonical, orders.accepted, orders.error, orders.message_row, orders.origin, orders.at, orders.seq \nFROM orders \nWHERE orders.game_id = :game AND orders.accepted = :accepted_1 AND orders.seq IS NOT NULL ORDER BY orders.id', {'accepted_1': 1}),
        'postgresql': ('SELECT orders.id, orders.game_id, orders.action, orders.player, orders.turn, orders.text, orders.canonical, orders.accepted, orders.error, orders.message_row, orders.origin, orders.at, orders.seq \nFROM orders \nWHERE orders.game_id = %(game)s AND orders.accepted = %(accepted_1)s AND orders.seq IS NOT NULL ORDER BY orders.id', {'accepted_1': 1}),
    },
    '2e50f02f797c83819bbd8f568fe03f1b399c1b9b': {
        'sqlite': ('SELECT count(*) AS n \nFROM orders \nWHERE orders.game_id = :game AND orders.action = :action_1 AND orders.accepted = :accepted_1', {'action_1': 'order', 'accepted_1': 1}),
        'postgresql': ('SELECT count(*) AS n \nFROM orders \nWHERE orders.game_id = %(game)s AND orders.action = %(action_1)s AND orders.accepted = %(accepted_1)s', {'action_1': 'order', 'accepted_1': 1}),
    },
    '2e84f6ad175f4935a0a572d0231a0bf8ed01a342': {
        'sqlite': ('DELETE FROM orders WHERE orders.game_id = :game', {}),
        'postgresql': ('DELETE FROM orders WHERE orders.game_id = %(game)s', {}),
    },
    '2ef3d4ca9415bba0e68bca9545b97c1d738aca67': {
        'sqlite': ('SELECT * \nFROM players \nWHERE players.game_id = :game AND lower(players.name) = lower(:name)', {}),
        'postgresql': ('SELECT * \nFROM players \nWHERE players.game_id = %(game)s AND lower(players.name) = lower(%(name)s)', {}),
    },
    '312559165fef8a484adf78ca7ab091f8a3339b25': {
        'sqlite': ('UPDATE daemons SET inbox_handled=:handled, inbox_left=:left, backlog_since=:since WHERE daemons.daemon_id = :me', {}),
        'postgresql': ('UPDATE daemons SET inbox_handled=%(handled)s, inbox_left=%(left)s, backlog_since=%(since)s WHERE daemons.daemon_id = %(me)s', {}),
    },
    '323ac75dd6d4c02c4d3f04a3c25ec4dde5482a4e': {
        'sqlite': ('SELECT min(daemons.sending_down_since) AS since \nFROM daemons \nWHERE daemons.last_seen >= :seen_after AND daemons.sending_down_since IS NOT NULL', {}),
        'postgresql': ('SELECT min(daemons.sending_down_since) AS since \nFROM daemons \nWHERE daemons.last_seen >= %(seen_after)s AND daemons.sending_down_since IS NOT NULL', {}),
    },
    '32463b2d28767e9e683f82d70ceb262f848e1482': {
        'sqlite': ('SELECT deadlines.game_id \nFROM deadlines JOIN games ON games.id = deadlines.game_id \nWHERE games.status = :status_1 AND deadlines.due IS NOT NULL AND deadlines.due <= :by AND deadlines.grace_done = :grace_done_1 ORDER BY deadlines.game_id', {'status_1': 'active', 'grace_done_1': 0}),
        'postgresql': ('SELECT deadlines.game_id \nFROM deadlines JOIN games ON games.id = deadlines.game_id \nWHERE games.status = %(status_1)s AND deadlines.due IS NOT NULL AND deadlines.due <= %(by)s AND deadlines.grace_done = %(grace_done_1)s ORDER BY deadlines.game_id', {'status_1': 'active', 'grace_done_1': 0}),
    },
    '33114eec6ec296d83471781621037c413285a433': {
        'sqlite': ('DELETE FROM timers WHERE timers.game_id = :game', {}),
        'postgresql': ('DELETE FROM timers WHERE timers.game_id = %(game)s', {}),
    },
    '3493c4df9d7646e7c23e756055c0393ebe3d53ac': {
        'sqlite': ('SELECT (SELECT max(messages.id) AS max_1 \nFROM messages) AS messages, (SELECT max(orders.id) AS max_2 \nFROM orders) AS orders, (SELECT max(delivery_events.id) AS max_3 \nFROM delivery_events) AS events', {}),
        'postgresql': ('SELECT (SELECT max(messages.id) AS max_1 \nFROM messages) AS messages, (SELECT max(orders.id) AS max_2 \nFROM orders) AS orders, (SELECT max(delivery_events.id) AS max_3 \nFROM delivery_events) AS events', {}),
    },
    '36b23004c87080ae76183f0a83e78e2757691c7b': {
        'sqlite': ('SELECT count(*) AS n \nFROM messages \nWHERE messages.outcome = :outcome_1 AND messages.received >= :since', {'outcome_1': 'error'}),
        'postgresql': ('SELECT count(*) AS n \nFROM messages \nWHERE messages.outcome = %(outcome_1)s AND messages.received >= %(since)s', {'outcome_1': 'error'}),
    },
    '3a5b0603d7595a2cda031f9067f24456bb43873a': {
        'sqlite': ('DELETE FROM game_settings WHERE game_settings.game_id = :game', {}),
        'postgresql': ('DELETE FROM game_settings WHERE game_settings.game_id = %(game)s', {}),
    },
    '3a7caf1f1903de2fe9fbcd233cbc159f80d0e78a': {
        'sqlite': ('SELECT history.id, history.game_id, history.turn, history.actor, history.action, history.detail, history.at \nFROM history \nWHERE history.game_id = :game ORDER BY history.id', {}),
        'postgresql': ('SELECT history.id, history.game_id, history.turn, history.actor, history.action, history.detail, history.at \nFROM history \nWHERE history.game_id = %(game)s ORDER BY history.id', {}),
    },
    '3b1d0088deb6ab1c004b47f18191ceafaf466eb3': {
        'sqlite': ('SELECT states.seq, states.turn, states.created, EXISTS (SELECT * \nFROM state_overrides \nWHERE state_overrides.game_id = states.game_id AND state_overrides.seq = states.seq) AS overridden \nFROM states \nWHERE states.game_id = :game ORDER BY states.seq DESC', {}),
        'postgresql': ('SELECT states.seq, states.turn, states.created, EXISTS (SELECT * \nFROM state_overrides \nWHERE state_overrides.game_id = states.game_id AND state_overrides.seq = states.seq) AS overridden \nFROM states \nWHERE states.game_id = %(game)s ORDER BY states.seq DESC', {}),
    },
    '3bbfe81a3a47b9d9bc50f20a6479efa6ccf83dbf': {
        'sqlite': ('SELECT outbox.status, count(*) AS n \nFROM outbox GROUP BY outbox.status', {}),
        'postgresql': ('SELECT outbox.status, count(*) AS n \nFROM outbox GROUP BY outbox.status', {}),
    },
    '3c2968c8242857e779aa517139c023aa5323c5d8': {
        'sqlite': ('DELETE FROM games WHERE games.id = :game', {}),
        'postgresql': ('DELETE FROM games WHERE games.id = %(game)s', {}),
    },
    '3dc6031c64d7deb1cf3b54414b6c9e340772c019': {
        'sqlite': ('INSERT INTO address_settings (address, format, timezone, updated) VALUES (:address, :format, :timezone, :updated) ON CONFLICT (address) DO UPDATE SET format = excluded.format, timezone = excluded.timezone, updated = excluded.updated', {}),
        'postgresql': ('INSERT INTO address_settings (address, format, timezone, updated) VALUES (%(address)s, %(format)s, %(timezone)s, %(updated)s) ON CONFLICT (address) DO UPDATE SET format = excluded.format, timezone = excluded.timezone, updated = excluded.updated', {}),
    },
    '3f7ab90426bf0d3eb8eb24735e253add24985e2e': {
        'sqlite': ('SELECT states.seq, states.state, states.state_packing \nFROM states \nWHERE states.game_id = :game ORDER BY states.seq', {}),
        'postgresql': ('SELECT states.seq, states.state, states.state_packing \nFROM states \nWHERE states.game_id = %(game)s ORDER BY states.seq', {}),
    },
    '401b4f207e9859eae99289f162da5fc74527a78e': {
        'sqlite': ('SELECT orders.player, orders.origin \nFROM orders \nWHERE orders.game_id = :game AND orders.action = :action_1 AND orders.accepted = :accepted_1 AND orders.seq >= :seq ORDER BY orders.id', {'action_1': 'order', 'accepted_1': 1}),
        'postgresql': ('SELECT orders.player, orders.origin \nFROM orders \nWHERE orders.game_id = %(game)s AND orders.action = %(action_1)s AND orders.accepted = %(accepted_1)s AND orders.seq >= %(seq)s ORDER BY orders.id', {'action_1': 'order', 'accepted_1': 1}),
    },
    '42ca6a992ee6dbcb5aefb5d7a7c8667e85731779': {
        'sqlite': ('SELECT players.pw_hash \nFROM players \nWHERE players.game_id = :game AND lower(players.email) = :email', {}),
        'postgresql': ('SELECT players.pw_hash \nFROM players \nWHERE players.game_id = %(game)s AND lower(players.email) = %(email)s', {}),
    },
    '458b2cf147958885bc530f85180b80e8eaa699a9': {
        'sqlite': ('SELECT max(states.created) AS at \nFROM states \nWHERE states.game_id = :game', {}),
        'postgresql': ('SELECT max(states.created) AS at \nFROM states \nWHERE states.game_id = %(game)s', {}),
    },
    '483ea3d4baf7abab7eecba945f410d35e60be483': {
        'sqlite': ('SELECT outbox.recipient \nFROM outbox \nWHERE outbox.game_id = :game AND outbox.turn = :number AND outbox.kind IN (:kind_1_1, :kind_1_2) AND outbox.status IN (:status_1_1, :status_1_2)', {'kind_1_1': 'report', 'kind_1_2': 'welcome', 'status_1_1': 'queued', 'status_1_2': 'held'}),
        'postgresql': ('SELECT outbox.recipient \nFROM outbox \nWHERE outbox.game_id = %(game)s AND outbox.turn = %(number)s AND outbox.kind IN (%(kind_1_1)s, %(kind_1_2)s) AND outbox.status IN (%(status_1_1)s, %(status_1_2)s)', {'kind_1_1': 'report', 'kind_1_2': 'welcome', 'status_1_1': 'queued', 'status_1_2': 'held'}),
    },
    '495f0ad6a5231568152f29a666c5d90de2d35f77': {
        'sqlite': ('INSERT INTO results (game_id, reason, winners, at) VALUES (:game_id, :reason, :winners, :at) ON CONFLICT (game_id) DO UPDATE SET reason = excluded.reason, winners = excluded.winners, at = excluded.at', {}),
        'postgresql': ('INSERT INTO results (game_id, reason, winners, at) VALUES (%(game_id)s, %(reason)s, %(winners)s, %(at)s) ON CONFLICT (game_id) DO UPDATE SET reason = excluded.reason, winners = excluded.winners, at = excluded.at', {}),
    },
    '530db82da761763559a7d1a9e22c2de4730fa293': {
        'sqlite': ('SELECT orders.id, orders.accepted \nFROM orders \nWHERE orders.id > :after ORDER BY orders.id', {}),
        'postgresql': ('SELECT orders.id, orders.accepted \nFROM orders \nWHERE orders.id > %(after)s ORDER BY orders.id', {}),
    },
    '55051e0d9a21fedc6c90ccd9ddb9ccb9ce5fbe0b': {
        'sqlite': ('INSERT INTO timers (game_id, due) VALUES (:game_id, :due) ON CONFLICT (game_id) DO UPDATE SET due = excluded.due', {}),
        'postgresql': ('INSERT INTO timers (game_id, due) VALUES (%(game_id)s, %(due)s) ON CONFLICT (game_id) DO UPDATE SET due = excluded.due', {}),
    },
    '551882eaf40796084cf5db02ee27e4c9c8b02515': {
        'sqlite': ('DELETE FROM address_codes WHERE address_codes.game_id = :game', {}),
        'postgresql': ('DELETE FROM address_codes WHERE address_codes.game_id = %(game)s', {}),
    },
    '582aeb31786ea44d692292ae716ec27b62a891b0': {
        'sqlite': ('SELECT states.seq, states.turn \nFROM states \nWHERE states.game_id = :game ORDER BY states.seq', {}),
        'postgresql': ('SELECT states.seq, states.turn \nFROM states \nWHERE states.game_id = %(game)s ORDER BY states.seq', {}),
    },
    '612cf4809b724713a1b7e791d47c56eec48b99a7': {
        'sqlite': ('DELETE FROM draw_proposals WHERE draw_proposals.game_id = :game AND draw_proposals.player = :player', {}),
        'postgresql': ('DELETE FROM draw_proposals WHERE draw_proposals.game_id = %(game)s AND draw_proposals.player = %(player)s', {}),
    },
    '62b7766398c9ae09d26f1ab3f820b04e1456fae8': {
        'sqlite': ('SELECT outages.id, outages.kind, outages.start, outages.finish, outages.applied \nFROM outages \nWHERE outages.kind = :what AND outages.finish IS NULL ORDER BY outages.id', {}),
        'postgresql': ('SELECT outages.id, outages.kind, outages.start, outages.finish, outages.applied \nFROM outages \nWHERE outages.kind = %(what)s AND outages.finish IS NULL ORDER BY outages.id', {}),
    },
    '66ac1c54498482bceb9c3c81b3d8345910849b39': {
        'sqlite': ('SELECT messages.id, messages.outcome \nFROM messages \nWHERE messages.id > :after ORDER BY messages.id', {}),
        'postgresql': ('SELECT messages.id, messages.outcome \nFROM messages \nWHERE messages.id > %(after)s ORDER BY messages.id', {}),
    },
    '68ae2ab0089277211b5e17a2a8e52a91fa64bffd': {
        'sqlite': ('DELETE FROM daemons WHERE daemons.last_seen < :before', {}),
        'postgresql': ('DELETE FROM daemons WHERE daemons.last_seen < %(before)s', {}),
    },
    '6c02686eddbbda6077f517d18dbf29c4648fe5f2': {
        'sqlite': ('SELECT max(outbox.created) AS at \nFROM outbox', {}),
        'postgresql': ('SELECT max(outbox.created) AS at \nFROM outbox', {}),
    },
    '6c94f50549ac83db913b5034050c0d2c18ad0010': {
        'sqlite': ('DELETE FROM results WHERE results.game_id = :game', {}),
        'postgresql': ('DELETE FROM results WHERE results.game_id = %(game)s', {}),
    },
    '6ee34c0a2185d69fdd35d06f70eb13bd103c2248': {
        'sqlite': ('SELECT state_overrides.game_id, state_overrides.seq, state_overrides.action, state_overrides.source_seq, state_overrides.detail \nFROM state_overrides \nWHERE state_overrides.game_id = :game', {}),
        'postgresql': ('SELECT state_overrides.game_id, state_overrides.seq, state_overrides.action, state_overrides.source_seq, state_overrides.detail \nFROM state_overrides \nWHERE state_overrides.game_id = %(game)s', {}),
    },
    '6f05095c0048996381d4ec59bc805b5c095e1ea1': {
        'sqlite': ('DELETE FROM absences WHERE absences.game_id = :game', {}),
        'postgresql': ('DELETE FROM absences WHERE absences.game_id = %(game)s', {}),
    },
    '7306b31e9fafab96fefb3c3dfd58eae234c4b934': {
        'sqlite': ('DELETE FROM state_overrides WHERE state_overrides.game_id = :game', {}),
        'postgresql': ('DELETE FROM state_overrides WHERE state_overrides.game_id = %(game)s', {}),
    },
    '7341fcdc1b23aa1c2adbe9c1d0eff688993dcb72': {
        'sqlite': ('SELECT game_settings."key", game_settings.value \nFROM game_settings \nWHERE game_settings.game_id = :game', {}),
        'postgresql': ('SELECT game_settings.key, game_settings.value \nFROM game_settings \nWHERE game_settings.game_id = %(game)s', {}),
    },
    '7e337b9bc8adb71b678cbcf0d803cf4d931f7493': {
        'sqlite': ('SELECT max(daemons.last_seen) AS at \nFROM daemons', {}),
        'postgresql': ('SELECT max(daemons.last_seen) AS at \nFROM daemons', {}),
    },
    '7f406e9af996b73194cf905f6e0ae33684cd2529': {
        'sqlite': ('SELECT state_overrides.seq \nFROM state_overrides \nWHERE state_overrides.game_id = :game', {}),
        'postgresql': ('SELECT state_overrides.seq \nFROM state_overrides \nWHERE state_overrides.game_id = %(game)s', {}),
    },
    '82718c9521d042ac6d0e4afb4766dfa0499d093e': {
        'sqlite': ('SELECT count(*) AS n \nFROM outbox \nWHERE outbox.status = :status_1 AND outbox.sent >= :since', {'status_1': 'sent'}),
        'postgresql': ('SELECT count(*) AS n \nFROM outbox \nWHERE outbox.status = %(status_1)s AND outbox.sent >= %(since)s', {'status_1': 'sent'}),
    },
    '8276d983fa337da4245d65dd924881c9aacc2f7c': {
        'sqlite': ('SELECT min(outages.start) AS since \nFROM outages \nWHERE outages.finish IS NULL', {}),
        'postgresql': ('SELECT min(outages.start) AS since \nFROM outages \nWHERE outages.finish IS NULL', {}),
    },
    '8479aebc38b2fe68acb1f9ee21aa2ebbc222aaa3': {
        'sqlite': ('DELETE FROM credential_locks WHERE credential_locks.game_id = :game', {}),
        'postgresql': ('DELETE FROM credential_locks WHERE credential_locks.game_id = %(game)s', {}),
    },
    '85ccfc8bc31e41cc9c7d92228cd45d84fdb04186': {
        'sqlite': ('DELETE FROM players WHERE players.game_id = :game', {}),
        'postgresql': ('DELETE FROM players WHERE players.game_id = %(game)s', {}),
    },
    '87c29f6d15b20e60f3bb9fc4b37916364b4e4c90': {
        'sqlite': ('DELETE FROM credential_failures WHERE credential_failures.game_id = :game', {}),
        'postgresql': ('DELETE FROM credential_failures WHERE credential_failures.game_id = %(game)s', {}),
    },
    '8a334887c34b8c5acd88c320e0c4867d3b01975b': {
        'sqlite': ('SELECT games.id \nFROM games \nWHERE games.status = :status_1', {'status_1': 'active'}),
        'postgresql': ('SELECT games.id \nFROM games \nWHERE games.status = %(status_1)s', {'status_1': 'active'}),
    },
    '8d7a9ca876f29384c3f50c31ddeda4b8b3ef77e3': {
        'sqlite': ('SELECT * \nFROM players \nWHERE players.game_id = :game ORDER BY players.seat', {}),
        'postgresql': ('SELECT * \nFROM players \nWHERE players.game_id = %(game)s ORDER BY players.seat', {}),
    },
    '8dd351df94edfd043907cd0e6eeff86b0d5e240d': {
        'sqlite': ('DELETE FROM bounce_holds WHERE bounce_holds.game_id = :game', {}),
        'postgresql': ('DELETE FROM bounce_holds WHERE bounce_holds.game_id = %(game)s', {}),
    },
    '91a87d4f2041094040997b48efb15ddd8a6f9ca0': {
        'sqlite': ('INSERT INTO daemons (daemon_id, host, pid, started, last_seen, sending_down_since) VALUES (:me, :on, :process, :at, :now, :down)', {}),
        'postgresql': ('INSERT INTO daemons (daemon_id, host, pid, started, last_seen, sending_down_since) VALUES (%(me)s, %(on)s, %(process)s, %(at)s, %(now)s, %(down)s)', {}),
    },
    '97b1e1a36b31e3bb83edc77273f87e72dcb39f8b': {
        'sqlite': ('SELECT max(messages.received) AS at \nFROM messages', {}),
        'postgresql': ('SELECT max(messages.received) AS at \nFROM messages', {}),
    },
    'a1b512845c6b35e1079446c39f4a55656d58a1db': {
        'sqlite': ('SELECT delivery_events.id, delivery_events.permanent \nFROM delivery_events \nWHERE delivery_events.id > :after ORDER BY delivery_events.id', {}),
        'postgresql': ('SELECT delivery_events.id, delivery_events.permanent \nFROM delivery_events \nWHERE delivery_events.id > %(after)s ORDER BY delivery_events.id', {}),
    },
    'a2592a172cf408ff117baa9b3df2821949e166bd': {
        'sqlite': ('DELETE FROM draw_proposals WHERE draw_proposals.game_id = :game', {}),
        'postgresql': ('DELETE FROM draw_proposals WHERE draw_proposals.game_id = %(game)s', {}),
    },
    'a3a68ac12d070503474cf6711421f4857c43adf1': {
        'sqlite': ('DELETE FROM observers WHERE observers.game_id = :game', {}),
        'postgresql': ('DELETE FROM observers WHERE observers.game_id = %(game)s', {}),
    },
    'a9e7c5735276f31a5792f91af97d39ce574339dc': {
        'sqlite': ('INSERT INTO game_settings (game_id, "key", value) VALUES (:game_id, :key, :value) ON CONFLICT (game_id, "key") DO UPDATE SET value = excluded.value', {}),
        'postgresql': ('INSERT INTO game_settings (game_id, key, value) VALUES (%(game_id)s, %(key)s, %(value)s) ON CONFLICT (game_id, key) DO UPDATE SET value = excluded.value', {}),
    },
    'acc0b15152e7b5fc3c6c3999298aa261b91205f2': {
        'sqlite': ('SELECT deadlines.game_id, deadlines.start_seq, deadlines.turn, deadlines.due, deadlines.reminded, deadlines.late, deadlines.grace_done, deadlines.paused_at, deadlines.set_by \nFROM deadlines \nWHERE deadlines.game_id = :game', {}),
        'postgresql': ('SELECT deadlines.game_id, deadlines.start_seq, deadlines.turn, deadlines.due, deadlines.reminded, deadlines.late, deadlines.grace_done, deadlines.paused_at, deadlines.set_by \nFROM deadlines \nWHERE deadlines.game_id = %(game)s', {}),
    },
    'ad56f5cdc1ff3761535defab112db505bd65c971': {
        'sqlite': ('SELECT timers.game_id \nFROM timers \nWHERE timers.due <= :now ORDER BY timers.due, timers.game_id', {}),
        'postgresql': ('SELECT timers.game_id \nFROM timers \nWHERE timers.due <= %(now)s ORDER BY timers.due, timers.game_id', {}),
    },
    'ae6c3eb2ad2786624d0f4e83056f1ef530850512': {
        'sqlite': ('SELECT states.game_id, states.seq, states.turn, states.state, states.created, states.state_packing \nFROM states \nWHERE states.game_id = :game AND states.seq = :seq', {}),
        'postgresql': ('SELECT states.game_id, states.seq, states.turn, states.state, states.created, states.state_packing \nFROM states \nWHERE states.game_id = %(game)s AND states.seq = %(seq)s', {}),
    },
    'b2af63a79927c080314191e91791254d3c8ee16d': {
        'sqlite': ('SELECT bounce_holds.start_seq, bounce_holds.seconds \nFROM bounce_holds \nWHERE bounce_holds.game_id = :game AND bounce_holds.player = :player', {}),
        'postgresql': ('SELECT bounce_holds.start_seq, bounce_holds.seconds \nFROM bounce_holds \nWHERE bounce_holds.game_id = %(game)s AND bounce_holds.player = %(player)s', {}),
    },
    'b5be7b44286d1d933ffd0e1cefebe2fe568daa24': {
        'sqlite': ('UPDATE outages SET applied=:applied WHERE outages.id = :outage', {'applied': 1}),
        'postgresql': ('UPDATE outages SET applied=%(applied)s WHERE outages.id = %(outage)s', {'applied': 1}),
    },
    'b692b8e159beca69ccdb9d509431508e2255b64a': {
        'sqlite': ('SELECT max(games.updated) AS at \nFROM games', {}),
        'postgresql': ('SELECT max(games.updated) AS at \nFROM games', {}),
    },
    'c12c268eb7e4e75892242f4562bbe53869cc6194': {
        'sqlite': ('SELECT max(daemons.last_seen) AS at \nFROM daemons', {}),
        'postgresql': ('SELECT max(daemons.last_seen) AS at \nFROM daemons', {}),
    },
    'c3b36a8e5d81189b48d06642c0f0de0c31594062': {
        'sqlite': ('DELETE FROM history WHERE history.game_id = :game', {}),
        'postgresql': ('DELETE FROM history WHERE history.game_id = %(game)s', {}),
    },
    'c3f512f0fc0c6a668acbd21a489ed785a977efe4': {
        'sqlite': ('SELECT outages.id, outages.kind, outages.start, outages.finish, outages.applied \nFROM outages ORDER BY outages.id', {}),
        'postgresql': ('SELECT outages.id, outages.kind, outages.start, outages.finish, outages.applied \nFROM outages ORDER BY outages.id', {}),
    },
    'caca075c2e134074ad6975456d14f7141f85102f': {
        'sqlite': ('DELETE FROM timers WHERE timers.game_id = :game', {}),
        'postgresql': ('DELETE FROM timers WHERE timers.game_id = %(game)s', {}),
    },
    'ccb14088050f1539dac976f76af5409c332a30f7': {
        'sqlite': ('SELECT min(outbox.created) AS at \nFROM outbox \nWHERE outbox.status = :status_1', {'status_1': 'queued'}),
        'postgresql': ('SELECT min(outbox.created) AS at \nFROM outbox \nWHERE outbox.status = %(status_1)s', {'status_1': 'queued'}),
    },
    'cd3db6f4c3f8abc5c98df967fb0f8be03f63fa84': {
        'sqlite': ('SELECT games.id, games.kind, games.seed, games.options, games.status, games.created, games.updated, games.token_salt \nFROM games ORDER BY games.created, games.id', {}),
        'postgresql': ('SELECT games.id, games.kind, games.seed, games.options, games.status, games.created, games.updated, games.token_salt \nFROM games ORDER BY games.created, games.id', {}),
    },
    'cdae20ee2fd35edda06ce040045164580ab0034a': {
        'sqlite': ('UPDATE outages SET finish=:ended WHERE outages.id = :outage', {}),
        'postgresql': ('UPDATE outages SET finish=%(ended)s WHERE outages.id = %(outage)s', {}),
    },
    'd0664ff8426ea873df9d891c4618cf3cac2ea4da': {
        'sqlite': ('DELETE FROM draw_proposals WHERE draw_proposals.game_id = :game', {}),
        'postgresql': ('DELETE FROM draw_proposals WHERE draw_proposals.game_id = %(game)s', {}),
    },
    'd3702d04bba5020ac078c904b5d1282f9d8b6200': {
        'sqlite': ('SELECT orders.id \nFROM orders \nWHERE orders.game_id = :game AND orders.accepted = :accepted_1 AND orders.seq > :seq', {'accepted_1': 1}),
        'postgresql': ('SELECT orders.id \nFROM orders \nWHERE orders.game_id = %(game)s AND orders.accepted = %(accepted_1)s AND orders.seq > %(seq)s', {'accepted_1': 1}),
    },
    'd7a41f43ae3148cd58f5e951c6e0cd48d6bca499': {
        'sqlite': ('SELECT timers.due \nFROM timers \nWHERE timers.game_id = :game', {}),
        'postgresql': ('SELECT timers.due \nFROM timers \nWHERE timers.game_id = %(game)s', {}),
    },
    'daae1e5c50f93207dc0e6177c76105035e32c19e': {
        'sqlite': ('SELECT timers.game_id, timers.due \nFROM timers ORDER BY timers.due, timers.game_id\n LIMIT :most OFFSET :param_1', {'param_1': 0}),
        'postgresql': ('SELECT timers.game_id, timers.due \nFROM timers ORDER BY timers.due, timers.game_id \n LIMIT %(most)s', {}),
    },
    'e0b0dfa3e92be4b8d0e36672223bdd544e520673': {
        'sqlite': ('SELECT games.id \nFROM games \nWHERE EXISTS (SELECT * \nFROM players \nWHERE players.game_id = games.id AND players.active = :active_1 AND lower(players.email) = lower(:email)) ORDER BY games.created DESC, games.id DESC\n LIMIT :most OFFSET :param_1', {'active_1': 1, 'param_1': 0}),
        'postgresql': ('SELECT games.id \nFROM games \nWHERE EXISTS (SELECT * \nFROM players \nWHERE players.game_id = games.id AND players.active = %(active_1)s AND lower(players.email) = lower(%(email)s)) ORDER BY games.created DESC, games.id DESC \n LIMIT %(most)s', {'active_1': 1}),
    },
    'e58dbaba84fb25c909ed844b85362f20fbe847ce': {
        'sqlite': ('SELECT count(*) AS n \nFROM games', {}),
        'postgresql': ('SELECT count(*) AS n \nFROM games', {}),
    },
    'eb80fdf8a4598ce1bd0a2c40f269fc69cfa1819a': {
        'sqlite': ('SELECT DISTINCT orders.player \nFROM orders \nWHERE orders.game_id = :game AND orders.action = :action_1 AND orders.accepted = :accepted_1 AND orders.seq >= :seq', {'action_1': 'order', 'accepted_1': 1}),
        'postgresql': ('SELECT DISTINCT orders.player \nFROM orders \nWHERE orders.game_id = %(game)s AND orders.action = %(action_1)s AND orders.accepted = %(accepted_1)s AND orders.seq >= %(seq)s', {'action_1': 'order', 'accepted_1': 1}),
    },
    'edd0f1f814bc16fec6c43826399c41f76467137a': {
        'sqlite': ('SELECT games.id, games.kind, games.seed, games.options, games.status, games.created, games.updated, games.token_salt \nFROM games ORDER BY games.created DESC, games.id DESC\n LIMIT :most OFFSET :param_1', {'param_1': 0}),
        'postgresql': ('SELECT games.id, games.kind, games.seed, games.options, games.status, games.created, games.updated, games.token_salt \nFROM games ORDER BY games.created DESC, games.id DESC \n LIMIT %(most)s', {}),
    },
    'f1d19098f83f491b3988c0d183684a2d00ae070f': {
        'sqlite': ('DELETE FROM reports WHERE reports.game_id = :game', {}),
        'postgresql': ('DELETE FROM reports WHERE reports.game_id = %(game)s', {}),
    },
    'f8c230b1283c144669687a9d9bd2628a1db5f236': {
        'sqlite': ('SELECT games.id, games.kind, games.seed, games.options, games.status, games.created, games.updated, games.token_salt \nFROM games \nWHERE games.id = :game', {}),
        'postgresql': ('SELECT games.id, games.kind, games.seed, games.options, games.status, games.created, games.updated, games.token_salt \nFROM games \nWHERE games.id = %(game)s', {}),
    },
    'fac58de56e0ed2e047a73fe6955813008f00ccd3': {
        'sqlite': ('DELETE FROM results WHERE results.game_id = :game', {}),
        'postgresql': ('DELETE FROM results WHERE results.game_id = %(game)s', {}),
    },
    'fb076a5c5fc6a601573a4434c00abf0bf466b660': {
        'sqlite': ('SELECT absences.player, absences.start, absences."end" \nFROM absences \nWHERE absences.game_id = :game', {}),
        'postgresql': ('SELECT absences.player, absences.start, absences."end" \nFROM absences \nWHERE absences.game_id = %(game)s', {}),
    },
    'fc4b49ac6a0b8c057e0bf42ced5bc186cdae2d88': {
        'sqlite': ('SELECT results.game_id, results.reason, results.winners, results.at \nFROM results \nWHERE results.game_id = :game', {}),
        'postgresql': ('SELECT results.game_id, results.reason, results.winners, results.at \nFROM results \nWHERE results.game_id = %(game)s', {}),
    },
}
