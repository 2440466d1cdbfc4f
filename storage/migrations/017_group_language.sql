-- One language per group: `chats.settings`' "group_lang" is set once, by whoever opens
-- the group's first game or its /settings, and changed only by its admins. A group that
-- has played before without choosing one spoke its latest game creator's language: it
-- keeps that language. (`settings` is ChatSettings.to_dict() as JSON: '{}' or an object
-- of one or more keys; the language is known, `users.language` holds only codes the bot
-- speaks; Russian, the default, should the creator's row be gone.)
UPDATE chats
SET settings = '{"group_lang": "' || COALESCE((
        SELECT users.language FROM games JOIN users ON users.id = games.creator_id
        WHERE games.chat_id = chats.id ORDER BY games.id DESC LIMIT 1
    ), 'ru') || '"' || CASE WHEN settings = '{}' THEN '}' ELSE ', ' || substr(settings, 2) END
WHERE settings NOT LIKE '%"group_lang"%'
    AND EXISTS (SELECT 1 FROM games WHERE games.chat_id = chats.id);
