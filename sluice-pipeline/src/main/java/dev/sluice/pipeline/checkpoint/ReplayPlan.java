package dev.sluice.pipeline.checkpoint;

import java.util.List;

/**
 * The ledger entries of one partition to re-create after a restart, walked in position order as the
 * partition is read again (property 2). While records fall inside an entry's range they form one
 * batch, sealed after the entry's last record and sent with the entry's shard and token; a batch
 * under construction outside any entry is sealed before a record reaches the next entry.
 */
public final class ReplayPlan {
    private final List<LedgerEntry> entries;
    private int next;

    public ReplayPlan(List<LedgerEntry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * The entry whose range holds {@code position} or lies ahead of it, or null when none is left.
     */
    public LedgerEntry at(long position) {
        while (next < entries.size() && entries.get(next).last() < position) {
            next++;
        }
        return next < entries.size() ? entries.get(next) : null;
    }

    /** True when an entry of {@code group} is still to be re-created (not yet walked past). */
    public boolean expects(String group) {
        for (int i = next; i < entries.size(); i++) {
            if (group.equals(entries.get(i).group())) {
                return true;
            }
        }
        return false;
    }
}
