package dev.sluice.pipeline.transform;

import dev.sluice.pipeline.decode.TargetColumns;
import java.util.Map;

/**
 * Creates user transforms named in the configuration ({@code transforms: [{java: {class: ...,
 * options: {...}}}]}), found with {@link java.util.ServiceLoader} or by class name.
 */
public interface TransformProvider {
    /** A name users can refer to, e.g. {@code geoip}. */
    String name();

    Transform create(TargetColumns columns, Map<String, Object> options);
}
