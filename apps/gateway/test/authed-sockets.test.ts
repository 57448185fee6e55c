import { describe, expect, it } from 'vitest';
import { AuthedSockets } from '../src/domain/authed-sockets.js';

const owner = (ip: string, playerId: string, tokenHash = `t-${playerId}`) => ({ ip, playerId, tokenHash });

describe('AuthedSockets', () => {
  it('refuses past the per-player and per-IP limits, and counts a closed socket out', () => {
    const sockets = new AuthedSockets<string>({ perIp: 3, perPlayer: 2 });
    expect(sockets.add('a1', owner('1.1.1.1', 'a'))).toBeNull();
    expect(sockets.add('a2', owner('1.1.1.1', 'a'))).toBeNull();
    expect(sockets.add('a3', owner('2.2.2.2', 'a'))).toBe('player');
    expect(sockets.add('b1', owner('1.1.1.1', 'b'))).toBeNull();
    expect(sockets.add('c1', owner('1.1.1.1', 'c'))).toBe('ip');
    sockets.delete('a1');
    expect(sockets.add('c1', owner('1.1.1.1', 'c'))).toBeNull();
    expect(sockets.size).toBe(3);
  });

  it('a bot the server runs is never refused nor counted, and its sockets still close on revocation', () => {
    const sockets = new AuthedSockets<string>({ perIp: 1, perPlayer: 1 });
    const bot = { ...owner('127.0.0.1', 'bot', 'hb'), exempt: true };
    for (const socket of ['g1', 'g2', 'g3']) expect(sockets.add(socket, bot)).toBeNull();
    // the address the bot shares with the server's visitors still has its one socket for them
    expect(sockets.add('p1', owner('127.0.0.1', 'person'))).toBeNull();
    expect(sockets.add('p2', owner('127.0.0.1', 'other'))).toBe('ip');
    sockets.delete('g1');
    expect(sockets.add('p2', owner('127.0.0.1', 'other'))).toBe('ip');
    expect(sockets.revoke('hb').sort()).toEqual(['g2', 'g3']);
  });

  it('hands back every socket of a revoked token, once', () => {
    const sockets = new AuthedSockets<string>({ perIp: 0, perPlayer: 0 });
    sockets.add('x', owner('1.1.1.1', 'a', 'h1'));
    sockets.add('y', owner('2.2.2.2', 'a', 'h1'));
    sockets.add('z', owner('1.1.1.1', 'a', 'h2'));
    expect(sockets.revoke('h1').sort()).toEqual(['x', 'y']);
    expect(sockets.revoke('h1')).toEqual([]);
    expect(sockets.tokenHashes()).toEqual(['h2']);
    expect(sockets.size).toBe(1);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as the IPv4 one', () => {
    const sockets = new AuthedSockets<string>({ perIp: 2, perPlayer: 0 });
    expect(sockets.add('a', owner('2001:db8:1:2::1', 'a'))).toBeNull();
    expect(sockets.add('b', owner('2001:db8:1:2:ffff::9', 'b'))).toBeNull();
    // another address of the same /64: no fresh room
    expect(sockets.add('c', owner('2001:db8:1:2:abcd::1', 'c'))).toBe('ip');
    expect(sockets.add('c', owner('2001:db8:1:3::1', 'c'))).toBeNull();
    expect(sockets.add('d', owner('192.0.2.1', 'd'))).toBeNull();
    expect(sockets.add('e', owner('::ffff:192.0.2.1', 'e'))).toBeNull();
    expect(sockets.add('f', owner('192.0.2.1', 'f'))).toBe('ip');
    sockets.delete('e');
    expect(sockets.add('f', owner('192.0.2.1', 'f'))).toBeNull();
  });
});
