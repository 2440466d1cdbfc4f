-- Games in forum topics: a game belongs to the topic of its group it was opened in,
-- and every message of it goes there. `thread_id` is the topic's message_thread_id;
-- NULL: a group that is no forum, or a forum's General topic (which takes no thread id).
-- A group runs one game a topic at a time (General counting as one topic); a person
-- still plays in one game at a time (`seats_one_active_game_per_user`).
ALTER TABLE games ADD COLUMN thread_id INTEGER;

DROP INDEX games_one_active_per_chat;
CREATE UNIQUE INDEX games_one_active_per_topic
    ON games(chat_id, COALESCE(thread_id, 0)) WHERE status IN ('lobby', 'playing');
