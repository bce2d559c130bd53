package dev.sluice.clickhouse.protocol;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The {@code initial_address} of {@link ClientInfo}: an IP literal with a numeric port, {@code
 * 10.0.0.5:53122} or {@code [::1]:40000}.
 *
 * <p>Newer servers parse it without DNS and reject an empty string, a host name, or a missing or
 * non-numeric port with INCORRECT_DATA; 18.x servers hand it to Poco's SocketAddress, which would
 * resolve a name. So only literals are accepted here, and nothing in this class does a lookup.
 */
public final class InitialAddress {

    private InitialAddress() {}

    /**
     * Formats a resolved socket address, normally the connection's local address. IPv6 is written
     * in its shortest form, without a zone id (servers do not need it and older ones reject it).
     */
    public static String format(InetSocketAddress address) {
        InetAddress ip = address.getAddress();
        if (address.isUnresolved() || ip == null) {
            throw new IllegalArgumentException(
                    "initial address must be an IP address, not the unresolved host name '"
                            + address.getHostString()
                            + "'; pass the socket's local address");
        }
        if (ip instanceof Inet6Address) {
            return "[" + shortIpv6(ip.getAddress()) + "]:" + address.getPort();
        }
        return ip.getHostAddress() + ":" + address.getPort();
    }

    /** Returns {@code address} if it is an IP literal with a port, else throws. */
    public static String requireLiteral(String address) {
        String host;
        String port;
        if (address.startsWith("[")) {
            int close = address.indexOf(']');
            if (close < 0 || close + 1 >= address.length() || address.charAt(close + 1) != ':') {
                throw invalid(address, "expected [ipv6]:port");
            }
            host = address.substring(1, close);
            port = address.substring(close + 2);
            if (!isIpv6(host)) {
                throw invalid(address, "not an IPv6 literal between the brackets");
            }
        } else {
            int colon = address.indexOf(':');
            if (colon < 0) {
                throw invalid(address, "missing port");
            }
            host = address.substring(0, colon);
            port = address.substring(colon + 1);
            if (!isIpv4(host)) {
                throw invalid(address, "not an IPv4 literal (IPv6 needs brackets)");
            }
        }
        if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(Character::isDigit)) {
            throw invalid(address, "port must be a number");
        }
        if (Integer.parseInt(port) > 0xFFFF) {
            throw invalid(address, "port out of range");
        }
        return address;
    }

    private static IllegalArgumentException invalid(String address, String why) {
        return new IllegalArgumentException(
                "initial address '" + address + "' is not an IP literal with port: " + why);
    }

    static boolean isIpv4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return false;
            }
            if (Integer.parseInt(p) > 255) {
                return false;
            }
        }
        return true;
    }

    // RFC 4291 text forms: eight groups of 1-4 hex digits, at most one "::" standing for one or
    // more zero groups, and optionally a dotted IPv4 address as the last 32 bits.
    static boolean isIpv6(String s) {
        int gap = s.indexOf("::");
        if (gap >= 0 && s.indexOf("::", gap + 1) >= 0) {
            return false;
        }
        String head = gap >= 0 ? s.substring(0, gap) : s;
        String tail = gap >= 0 ? s.substring(gap + 2) : "";
        int headGroups = countGroups(head, gap < 0);
        int tailGroups = countGroups(tail, true);
        if (headGroups < 0 || tailGroups < 0) {
            return false;
        }
        int groups = headGroups + tailGroups;
        return gap >= 0 ? groups <= 7 : groups == 8;
    }

    // Groups in a colon-separated run, an IPv4 tail counting as two; -1 if malformed.
    private static int countGroups(String run, boolean mayEndWithIpv4) {
        if (run.isEmpty()) {
            return 0;
        }
        String[] parts = run.split(":", -1);
        int groups = 0;
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            boolean last = i == parts.length - 1;
            if (last && mayEndWithIpv4 && p.indexOf('.') >= 0) {
                if (!isIpv4(p)) {
                    return -1;
                }
                groups += 2;
            } else if (p.isEmpty()
                    || p.length() > 4
                    || !p.chars().allMatch(InitialAddress::isHex)) {
                return -1;
            } else {
                groups++;
            }
        }
        return groups;
    }

    private static boolean isHex(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    // RFC 5952: lower-case hex, no leading zeros, the longest run of two or more zero groups
    // (the first one on a tie) written as "::".
    private static String shortIpv6(byte[] bytes) {
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((bytes[2 * i] & 0xFF) << 8) | (bytes[2 * i + 1] & 0xFF);
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = Math.max(j, i + 1);
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLength - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(groups[i]));
        }
        return sb.toString();
    }
}
