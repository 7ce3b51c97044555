import t from 'tap';
import { playerClock } from '../../engine/core/player-clock.js';

t.test('durations as a media player shows them', async (t) => {
  t.equal(playerClock(0), '0:00');
  t.equal(playerClock(41), '0:41');
  t.equal(playerClock(225.4), '3:45');
  // floored, as players do: 59.7 s has not reached a minute
  t.equal(playerClock(59.7), '0:59');
  t.equal(playerClock(3599.9), '59:59');
  t.equal(playerClock(3600), '1:00:00');
  t.equal(playerClock(36000 + 62), '10:01:02');
  t.equal(playerClock(-3), '0:00');
});
