package dev.fulcrum.spi;

/**
 * The version of this interface (see the package's compatibility promise). A plugin returns this constant from
 * {@link StrategyProvider#spiVersion()}; being a compile-time constant, the value the plugin was compiled against is
 * the one it returns, whatever Fulcrum it later runs in.
 */
public final class Spi {
    /** This SPI's version: 1, the first. */
    public static final int VERSION = 1;

    private Spi() {
    }
}
