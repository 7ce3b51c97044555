import ipaddr from 'ipaddr.js';
import { invalidParameter } from '../../core/errors.js';

export function parseCidr(cidr: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  try {
    return ipaddr.parseCIDR(String(cidr).trim());
  } catch {
    throw invalidParameter('cidr', 'is not CIDR notation (e.g. 192.168.0.0/16)');
  }
}
