package dev.sluice.clickhouse.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.io.WireOutput;
import org.junit.jupiter.api.Test;

class AddendumTest {

    @Test
    void carriesTheQuotaKeyFrom54458() {
        Addendum addendum = new Addendum("team-a");

        assertThat(Bytes.written(out -> addendum.write(out, 54460)))
                .isEqualTo(Bytes.written(out -> out.writeString("team-a")));
        assertThat(Bytes.written(out -> addendum.write(out, 54458)))
                .isEqualTo(Bytes.written(out -> out.writeString("team-a")));
    }

    @Test
    void isEmptyBefore54458() {
        Addendum addendum = new Addendum("team-a");

        assertThat(Bytes.written(out -> addendum.write(out, 54457))).isEmpty();
        assertThat(Bytes.written(out -> addendum.write(out, 54412))).isEmpty();
    }

    @Test
    void refusesRevisionsWithChunkedFramingFields() {
        assertThatThrownBy(() -> new Addendum("").write(new WireOutput(16), 54470))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
